//! The journal's layout. The file starts with a header, `magic "TWJRNL02" | lap u64`, and the
//! records of the current lap follow: `len u32 | crc32 u32 | kind u8 | sid_len u8 | sid | body`,
//! where the CRC covers the lap number then the payload. The file is reused in place: a
//! checkpoint bumps the lap in the header instead of truncating, so the bytes past the lap's last
//! record are an older lap's records (or the zeros the file was grown with), and their CRCs,
//! taken under another lap number, end the replay there.
//!
//! Kinds: 1 put (the body is the session file), 2 delete (no body), 3 patch: the body is
//! `prefix u32 | suffix u32 | middle`, and the session file becomes the first `prefix` bytes of
//! its previous record *in the same lap*, then `middle`, then the last `suffix` bytes of that
//! record. A UI's successive states differ in a few bytes, so a patch is a few hundred bytes
//! where a put is the whole state. A patch never refers past its lap (the committer forgets
//! every base at a checkpoint), so a replay never needs a session file, which may hold a later
//! state than the lap's start.
//!
//! A file without the magic is the first layout (records from offset 0, CRC of the payload
//! alone, no patches), read on open so an older server's acknowledged writes are not lost.

use std::collections::HashMap;

use super::Op;

/// Identifies the in-place layout.
pub(super) const MAGIC: &[u8; 8] = b"TWJRNL02";
/// Bytes before the first record.
pub(super) const HEADER: u64 = 16;

/// The header of a file whose records belong to `lap`.
pub(super) fn header(lap: u64) -> [u8; HEADER as usize] {
    let mut out = [0; HEADER as usize];
    out[..8].copy_from_slice(MAGIC);
    out[8..].copy_from_slice(&lap.to_le_bytes());
    out
}

/// Appends one record of `lap` to `out`: a put or a delete, whole.
pub(super) fn encode(out: &mut Vec<u8>, lap: Option<u64>, sid: &str, op: &Op) {
    match op {
        Op::Put(bytes) => frame(out, lap, 1, sid, &[bytes]),
        Op::Delete => frame(out, lap, 2, sid, &[]),
    }
}

/// Appends `sid`'s put of `new` to `out`: as a patch of `base` (the session's previous record
/// in this lap) when that is smaller, else whole.
pub(super) fn encode_put(
    out: &mut Vec<u8>,
    lap: Option<u64>,
    sid: &str,
    new: &[u8],
    base: Option<&[u8]>,
) {
    if let Some(base) = base {
        let prefix = common_prefix(base, new);
        let suffix = common_suffix(&base[prefix..], &new[prefix..]);
        let middle = &new[prefix..new.len() - suffix];
        if let (Ok(p), Ok(s)) = (u32::try_from(prefix), u32::try_from(suffix)) {
            if middle.len() + 8 < new.len() {
                let (p, s) = (p.to_le_bytes(), s.to_le_bytes());
                return frame(out, lap, 3, sid, &[&p, &s, middle]);
            }
        }
    }
    frame(out, lap, 1, sid, &[new])
}

fn frame(out: &mut Vec<u8>, lap: Option<u64>, kind: u8, sid: &str, body: &[&[u8]]) {
    let len = 2 + sid.len() + body.iter().map(|b| b.len()).sum::<usize>();
    out.reserve(8 + len);
    out.extend_from_slice(&(len as u32).to_le_bytes());
    let crc_at = out.len();
    out.extend_from_slice(&[0; 4]);
    let payload_at = out.len();
    out.push(kind);
    out.push(sid.len() as u8);
    out.extend_from_slice(sid.as_bytes());
    for part in body {
        out.extend_from_slice(part);
    }
    let crc = checksum(lap, &out[payload_at..]);
    out[crc_at..payload_at].copy_from_slice(&crc.to_le_bytes());
}

/// Compared a block at a time (a `memcmp`), then byte by byte within the first block that
/// differs: a 100 KB session file takes a few microseconds.
const BLOCK: usize = 256;

/// How many leading bytes `a` and `b` share.
pub(super) fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + BLOCK <= n && a[i..i + BLOCK] == b[i..i + BLOCK] {
        i += BLOCK;
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    i
}

/// How many trailing bytes `a` and `b` share.
pub(super) fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let (a, b) = (&a[a.len() - n..], &b[b.len() - n..]);
    let mut i = 0;
    while i + BLOCK <= n && a[n - i - BLOCK..n - i] == b[n - i - BLOCK..n - i] {
        i += BLOCK;
    }
    while i < n && a[n - i - 1] == b[n - i - 1] {
        i += 1;
    }
    i
}

fn checksum(lap: Option<u64>, payload: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    if let Some(lap) = lap {
        h.update(&lap.to_le_bytes());
    }
    h.update(payload);
    h.finalize()
}

/// What a journal file holds.
pub(super) struct Decoded {
    /// The lap's records, patches applied: each session's last one (a put or a delete), in
    /// the order the sessions first appear.
    pub(super) records: Vec<(String, Op)>,
    /// How many complete records the lap holds.
    pub(super) count: usize,
    /// The lap of an in-place file; `None` for the first layout.
    pub(super) lap: Option<u64>,
    /// Where the records end (the next record would go there).
    pub(super) end: usize,
}

/// Reads a whole journal file, in either layout.
pub(super) fn decode_file(file: &[u8]) -> Decoded {
    match file.get(..HEADER as usize) {
        Some(head) if &head[..8] == MAGIC => {
            let mut lap = [0; 8];
            lap.copy_from_slice(&head[8..]);
            let lap = u64::from_le_bytes(lap);
            let mut d = decode(&file[HEADER as usize..], Some(lap));
            d.end += HEADER as usize;
            d
        }
        _ => decode(file, None),
    }
}

/// The complete records of `log` written under `lap` and the offset where they end: at a torn
/// or corrupt record, another lap's record, a patch without its base, or the end of `log`.
pub(super) fn decode(log: &[u8], lap: Option<u64>) -> Decoded {
    let mut records: Vec<(String, Op)> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let (mut at, mut count) = (0, 0);
    while at < log.len() {
        let Some(head) = log.get(at..at + 8) else {
            break;
        };
        let len = u32::from_le_bytes([head[0], head[1], head[2], head[3]]) as usize;
        let crc = u32::from_le_bytes([head[4], head[5], head[6], head[7]]);
        let Some(payload) = log.get(at + 8..at + 8 + len) else {
            break;
        };
        if payload.len() < 2 || checksum(lap, payload) != crc {
            break;
        }
        let sid_len = payload[1] as usize;
        let Some(sid) = payload
            .get(2..2 + sid_len)
            .and_then(|s| std::str::from_utf8(s).ok())
        else {
            break;
        };
        let body = &payload[2 + sid_len..];
        let slot = index.get(sid).copied();
        let op = match payload[0] {
            1 => Op::Put(body.to_vec()),
            2 => Op::Delete,
            3 if lap.is_some() => {
                let base = match slot.map(|i| &records[i].1) {
                    Some(Op::Put(base)) => base,
                    _ => break,
                };
                match patched(base, body) {
                    Some(bytes) => Op::Put(bytes),
                    None => break,
                }
            }
            _ => break,
        };
        match slot {
            Some(i) => records[i].1 = op,
            None => {
                index.insert(sid.to_string(), records.len());
                records.push((sid.to_string(), op));
            }
        }
        count += 1;
        at += 8 + len;
    }
    Decoded {
        records,
        count,
        lap,
        end: at,
    }
}

/// `base` with the patch `body` (`prefix u32 | suffix u32 | middle`) applied; `None` when the
/// patch does not fit it.
fn patched(base: &[u8], body: &[u8]) -> Option<Vec<u8>> {
    let word = |i: usize| -> Option<usize> {
        let b = body.get(i..i + 4)?;
        usize::try_from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])).ok()
    };
    let (prefix, suffix) = (word(0)?, word(4)?);
    let middle = &body[8..];
    if prefix.checked_add(suffix)? > base.len() {
        return None;
    }
    let mut out = Vec::with_capacity(prefix + middle.len() + suffix);
    out.extend_from_slice(&base[..prefix]);
    out.extend_from_slice(middle);
    out.extend_from_slice(&base[base.len() - suffix..]);
    Some(out)
}
