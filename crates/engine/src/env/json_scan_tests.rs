//! The scan agrees with serde_json: on documents and thousands of mutations of them, what it
//! accepts serde_json parses to the same members, and what serde_json refuses it refuses.

use super::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::Value;

const DOCS: &[&str] = &[
    r#"{"action":"set_current","state":{"a":"x \" y","b":[1,2,-0.5e+3,true,false,null],"c":{}}}"#,
    "{ \"action\" : \"set\" ,\n\t\"state\": { \"k\" : [ 1 , { \"z\": \"\\u00e9\\n\" } ] }\r\n}",
    r#"{"state":{"s":"é ü 😀 \ud83d\ude00","n":0,"m":-12.25E-2,"e":[[],[{}]]},"action":"merge","merge":true}"#,
    r#"{"action":"reset","x":"\/\b\f\r\t\\"}"#,
    r#"{}"#,
];

/// Bytes a mutation inserts or puts in place of another: JSON's structure and its edge cases.
const PIECES: &[&[u8]] = &[
    b"{",
    b"}",
    b"[",
    b"]",
    b",",
    b":",
    b"\"",
    b"\\",
    b" ",
    b"\n",
    b"\x01",
    b"\x1f",
    b"0",
    b"-",
    b".",
    b"e",
    b"+",
    b"1",
    b"t",
    b"n",
    b"\\u",
    b"\\ud800",
    b"\\udc00",
    b"x",
    b"\xc3\xa9",
];

fn mutate(rng: &mut StdRng, doc: &[u8]) -> Vec<u8> {
    let mut t = doc.to_vec();
    for _ in 0..rng.random_range(1..4) {
        let at = rng.random_range(0..=t.len());
        let piece = PIECES[rng.random_range(0..PIECES.len())];
        match rng.random_range(0..3) {
            0 if at < t.len() => {
                t.remove(at);
            }
            1 if at < t.len() => {
                t.splice(at..at + 1, piece.iter().copied());
            }
            _ => {
                t.splice(at..at, piece.iter().copied());
            }
        }
    }
    t
}

/// Whether `text` (valid JSON) has whitespace outside its strings.
fn has_space(text: &str) -> bool {
    let mut in_str = false;
    let mut esc = false;
    for c in text.chars() {
        match (in_str, esc, c) {
            (true, true, _) => esc = false,
            (true, false, '\\') => esc = true,
            (true, false, '"') => in_str = false,
            (false, _, '"') => in_str = true,
            (false, _, ' ' | '\t' | '\n' | '\r') => return true,
            _ => {}
        }
    }
    false
}

fn check(t: &[u8]) -> bool {
    let scanned = std::str::from_utf8(t).ok().and_then(|_| scan_object(t));
    let parsed: Option<serde_json::Map<String, Value>> = serde_json::from_slice(t).ok();
    let Some(members) = scanned else {
        return false;
    };
    let text = std::str::from_utf8(t).unwrap();
    let map = parsed.unwrap_or_else(|| panic!("scan accepted what serde refuses: {text:?}"));
    let mut keys = Vec::new();
    for m in &members {
        let key = &text[m.key.clone()];
        let value: Value = serde_json::from_str(&text[m.value.clone()])
            .unwrap_or_else(|e| panic!("member {key} of {text:?}: {e}"));
        // serde keeps the last of duplicate keys.
        if !members[members.iter().position(|n| n == m).unwrap() + 1..]
            .iter()
            .any(|n| text[n.key.clone()] == *key)
        {
            assert_eq!(map.get(key), Some(&value), "{text:?}");
        }
        assert_eq!(
            m.spaced,
            has_space(&text[m.value.clone()]),
            "{key} in {text:?}"
        );
        keys.push(key.to_string());
    }
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), map.len(), "{text:?}");
    true
}

#[test]
fn the_scan_accepts_only_what_serde_json_parses_and_reads_the_same_members() {
    for doc in DOCS {
        assert!(
            check(doc.as_bytes()),
            "a valid document goes the fast way: {doc}"
        );
    }
    let mut rng = StdRng::seed_from_u64(7);
    let (mut accepted, mut refused) = (0, 0);
    for n in 0..40_000 {
        let t = mutate(&mut rng, DOCS[n % DOCS.len()].as_bytes());
        if check(&t) {
            accepted += 1;
        } else {
            refused += 1;
            // Refused valid objects must be rare corner cases (escaped keys, lone surrogates).
        }
    }
    assert!(
        accepted > 2_000 && refused > 2_000,
        "{accepted} accepted, {refused} refused"
    );
}

#[test]
fn the_scan_refuses_what_serde_json_refuses() {
    let bad: &[&[u8]] = &[
        b"",
        b"{",
        b"{\"a\":}",
        b"{\"a\":1,}",
        b"{\"a\" 1}",
        b"{\"a\":01}",
        b"{\"a\":1.}",
        b"{\"a\":-}",
        b"{\"a\":1e}",
        b"{\"a\":tru}",
        b"{\"a\":\"\x01\"}",
        b"{\"a\":\"\\x\"}",
        b"{\"a\":\"\\u12g4\"}",
        b"{\"a\":[1,]}",
        b"{\"a\":[1}",
        b"{\"a\":{\"b\":1]}",
        b"{} {}",
        b"[1]",
        b"{\"a\":1}x",
        b"{\"a\":\"unterminated}",
        b"{\"a\":+1}",
        b"{\"a\":.5}",
    ];
    for t in bad {
        assert!(scan_object(t).is_none(), "{:?}", String::from_utf8_lossy(t));
        assert!(serde_json::from_slice::<Value>(t).map_or(true, |v| !v.is_object()));
    }
    let deep = format!("{{\"a\":{}1{}}}", "[".repeat(150), "]".repeat(150));
    assert!(
        scan_object(deep.as_bytes()).is_none(),
        "deep nesting is left to serde_json"
    );
    // A lone surrogate is left to serde_json (whose RawValue keeps it) rather than accepted.
    assert!(scan_object(br#"{"a":"\ud800"}"#).is_none());
}

#[test]
fn the_word_search_finds_the_first_special_byte_at_every_offset() {
    let filler = [
        b'a', b'#', b'!', b']', 0xe9, b' ', b'\x7f', 0x21, 0x80, 0xff,
    ];
    for len in 0..40 {
        for at in 0..=len {
            for c in [b'"', b'\\', 0x00, 0x1f, b'\n'] {
                let mut t: Vec<u8> = (0..len).map(|i| filler[i % filler.len()]).collect();
                if at < len {
                    t[at] = c;
                    if at + 3 < len {
                        t[at + 3] = b'"';
                    }
                }
                let want = t.iter().position(|&x| x == b'"' || x == b'\\' || x < 0x20);
                assert_eq!(special(&t), want, "len {len} at {at} byte {c:#x}");
            }
        }
    }
}
