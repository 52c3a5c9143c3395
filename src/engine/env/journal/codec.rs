//! The journal's record framing: `len u32 | crc32 u32 | kind u8 | sid_len u8 | sid | body`.

use super::Op;

pub(super) fn encode(out: &mut Vec<u8>, sid: &str, op: &Op) {
    let (kind, body): (u8, &[u8]) = match op {
        Op::Put(bytes) => (1, bytes),
        Op::Delete => (2, &[]),
    };
    let len = 2 + sid.len() + body.len();
    out.reserve(8 + len);
    out.extend_from_slice(&(len as u32).to_le_bytes());
    let crc_at = out.len();
    out.extend_from_slice(&[0; 4]);
    let payload_at = out.len();
    out.push(kind);
    out.push(sid.len() as u8);
    out.extend_from_slice(sid.as_bytes());
    out.extend_from_slice(body);
    let crc = crc32fast::hash(&out[payload_at..]);
    out[crc_at..payload_at].copy_from_slice(&crc.to_le_bytes());
}

/// The complete records of a log, in order; the second value is the byte offset where a torn or
/// corrupt tail starts, if there is one.
pub(super) fn decode(log: &[u8]) -> (Vec<(String, Op)>, Option<usize>) {
    let mut out = Vec::new();
    let mut at = 0;
    while at < log.len() {
        let Some(head) = log.get(at..at + 8) else {
            return (out, Some(at));
        };
        let len = u32::from_le_bytes([head[0], head[1], head[2], head[3]]) as usize;
        let crc = u32::from_le_bytes([head[4], head[5], head[6], head[7]]);
        let Some(payload) = log.get(at + 8..at + 8 + len) else {
            return (out, Some(at));
        };
        if crc32fast::hash(payload) != crc || payload.len() < 2 {
            return (out, Some(at));
        }
        let sid_len = payload[1] as usize;
        let Some(sid) = payload
            .get(2..2 + sid_len)
            .and_then(|s| std::str::from_utf8(s).ok())
        else {
            return (out, Some(at));
        };
        let op = match payload[0] {
            1 => Op::Put(payload[2 + sid_len..].to_vec()),
            2 => Op::Delete,
            _ => return (out, Some(at)),
        };
        out.push((sid.to_string(), op));
        at += 8 + len;
    }
    (out, None)
}
