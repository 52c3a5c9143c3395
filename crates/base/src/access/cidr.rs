//! `--allow-from` lists: CIDR blocks (`10.1.0.0/16`, `fd00::/8`) or single addresses, parsed with
//! `ipnet`, and the membership test (an IPv4 client seen on an IPv6 socket as `::ffff:a.b.c.d`
//! counts as `a.b.c.d`).

use std::net::IpAddr;

use ipnet::IpNet;

use super::AccessError;

/// Parses every entry of an allow list; `source` names where it came from (a flag or a key).
pub fn parse_allow_from(values: &[String], source: &str) -> Result<Vec<IpNet>, AccessError> {
    values.iter().map(|v| parse_one(v, source)).collect()
}

fn parse_one(value: &str, source: &str) -> Result<IpNet, AccessError> {
    let v = value.trim();
    let bad = |why: String| AccessError::BadCidr {
        value: value.to_string(),
        origin: source.to_string(),
        why,
    };
    if v.is_empty() {
        return Err(bad("it is empty".into()));
    }
    if let Ok(ip) = v.parse::<IpAddr>() {
        return Ok(IpNet::from(ip));
    }
    let (addr, prefix) = v
        .split_once('/')
        .ok_or_else(|| bad("expected an address or ADDRESS/PREFIX".into()))?;
    let ip: IpAddr = addr
        .parse()
        .map_err(|_| bad(format!("{addr:?} is not an IPv4 or IPv6 address")))?;
    let max = if ip.is_ipv4() { 32 } else { 128 };
    let bits: u8 = prefix
        .parse()
        .ok()
        .filter(|b| *b <= max)
        .ok_or_else(|| bad(format!("prefix {prefix:?} is not a number from 0 to {max}")))?;
    let net = IpNet::new(ip, bits).map_err(|e| bad(e.to_string()))?;
    if net.trunc() != net {
        return Err(bad(format!(
            "host bits are set after /{bits}; did you mean {}?",
            net.trunc()
        )));
    }
    Ok(net)
}

/// Whether `peer` falls in one of `nets`.
pub fn allowed(nets: &[IpNet], peer: IpAddr) -> bool {
    let peer = canonical(peer);
    nets.iter().any(|n| n.contains(&peer))
}

/// `::ffff:a.b.c.d` as `a.b.c.d`; other addresses unchanged.
pub fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6
            .to_ipv4_mapped()
            .map(IpAddr::V4)
            .unwrap_or(IpAddr::V6(v6)),
        v4 => v4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(v: &[&str]) -> Result<Vec<IpNet>, AccessError> {
        parse_allow_from(
            &v.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            "--allow-from",
        )
    }

    #[test]
    fn blocks_and_single_addresses_match_their_members_only() {
        let nets = list(&["10.1.0.0/16", "192.0.2.7", "fd00::/8"]).unwrap();
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        assert!(allowed(&nets, ip("10.1.255.3")));
        assert!(!allowed(&nets, ip("10.2.0.1")));
        assert!(allowed(&nets, ip("192.0.2.7")));
        assert!(!allowed(&nets, ip("192.0.2.8")));
        assert!(allowed(&nets, ip("fd12::1")));
        assert!(!allowed(&nets, ip("fe80::1")));
        // An IPv4 client on a dual-stack socket.
        assert!(allowed(&nets, ip("::ffff:10.1.0.9")));
        assert!(allowed(&list(&["0.0.0.0/0"]).unwrap(), ip("203.0.113.1")));
    }

    #[test]
    fn invalid_entries_name_the_value_the_source_and_the_problem() {
        for (bad, why) in [
            ("10.0.0.0/33", "prefix \"33\""),
            ("10.0.0/8", "not an IPv4 or IPv6 address"),
            ("example.org", "expected an address"),
            ("10.1.2.3/8", "did you mean 10.0.0.0/8"),
            ("", "empty"),
            ("::1/129", "from 0 to 128"),
        ] {
            let e = list(&["127.0.0.1", bad]).unwrap_err().to_string();
            assert!(e.contains("--allow-from"), "{e}");
            assert!(e.contains(&format!("{bad:?}")), "{e}");
            assert!(e.contains(why), "{bad}: {e}");
        }
    }
}
