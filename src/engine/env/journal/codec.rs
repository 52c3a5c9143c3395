//! The journal's layout. The file starts with a header, `magic "TWJRNL02" | lap u64`, and the
//! records of the current lap follow: `len u32 | crc32 u32 | kind u8 | sid_len u8 | sid | body`,
//! where the CRC covers the lap number then the payload. The file is reused in place: a
//! checkpoint bumps the lap in the header instead of truncating, so the bytes past the lap's last
//! record are an older lap's records (or the zeros the file was grown with), and their CRCs,
//! taken under another lap number, end the replay there.
//!
//! A file without the magic is the first layout (records from offset 0, CRC of the payload
//! alone), read on open so an older server's acknowledged writes are not lost.

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

/// Appends one record of `lap` to `out`.
pub(super) fn encode(out: &mut Vec<u8>, lap: Option<u64>, sid: &str, op: &Op) {
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
    let crc = checksum(lap, &out[payload_at..]);
    out[crc_at..payload_at].copy_from_slice(&crc.to_le_bytes());
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
    /// The lap's complete records, in order.
    pub(super) records: Vec<(String, Op)>,
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
            let (records, end) = decode(&file[HEADER as usize..], Some(lap));
            Decoded {
                records,
                lap: Some(lap),
                end: HEADER as usize + end,
            }
        }
        _ => {
            let (records, end) = decode(file, None);
            Decoded {
                records,
                lap: None,
                end,
            }
        }
    }
}

/// The complete records of `log` written under `lap`, in order, and the offset where they end:
/// at a torn or corrupt record, another lap's record, or the end of `log`.
pub(super) fn decode(log: &[u8], lap: Option<u64>) -> (Vec<(String, Op)>, usize) {
    let mut out = Vec::new();
    let mut at = 0;
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
        let op = match payload[0] {
            1 => Op::Put(payload[2 + sid_len..].to_vec()),
            2 => Op::Delete,
            _ => break,
        };
        out.push((sid.to_string(), op));
        at += 8 + len;
    }
    (out, at)
}
