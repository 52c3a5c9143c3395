//! Bounded capture of a child's output stream: keeps the head and the tail, counts the rest.

use std::collections::VecDeque;

use tokio::io::{AsyncRead, AsyncReadExt};

use super::result::Captured;

/// Largest tail kept when output is truncated (the final `REWARD:` line lives there).
const TAIL_BYTES: usize = 64 * 1024;

/// Read `reader` to the end, keeping at most about `limit` bytes.
pub async fn capture<R: AsyncRead + Unpin>(mut reader: R, limit: usize) -> Captured {
    let tail_cap = TAIL_BYTES.min(limit / 2);
    let head_cap = limit - tail_cap;
    let mut head: Vec<u8> = Vec::new();
    let mut tail: VecDeque<u8> = VecDeque::new();
    let mut total: u64 = 0;
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let n = match reader.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        total += n as u64;
        let mut chunk = &buf[..n];
        if head.len() < head_cap {
            let take = chunk.len().min(head_cap - head.len());
            head.extend_from_slice(&chunk[..take]);
            chunk = &chunk[take..];
        }
        tail.extend(chunk.iter().copied());
        while tail.len() > tail_cap {
            tail.pop_front();
        }
    }
    let kept = head.len() + tail.len();
    let truncated = total > kept as u64;
    let mut bytes = head;
    if truncated {
        let dropped = total - kept as u64;
        bytes.extend_from_slice(
            format!("\n[... tuplewright: {dropped} bytes of output dropped ...]\n").as_bytes(),
        );
    }
    bytes.extend(tail);
    Captured {
        text: String::from_utf8_lossy(&bytes).into_owned(),
        total_bytes: total,
        truncated,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn small_output_is_kept_whole() {
        let c = capture(&b"hello\nREWARD: 1\n"[..], 1024).await;
        assert_eq!(c.text, "hello\nREWARD: 1\n");
        assert!(!c.truncated);
        assert_eq!(c.total_bytes, 16);
    }

    #[tokio::test]
    async fn large_output_keeps_head_and_tail() {
        let mut data = vec![b'x'; 10_000];
        data.extend_from_slice(b"\nREWARD: 0.5\n");
        let c = capture(&data[..], 1000).await;
        assert!(c.truncated);
        assert_eq!(c.total_bytes, data.len() as u64);
        assert!(c.text.starts_with("xxxx"));
        assert!(c.text.ends_with("REWARD: 0.5\n"));
        assert!(c.text.contains("bytes of output dropped"));
        assert!(c.text.len() < 1100);
    }
}
