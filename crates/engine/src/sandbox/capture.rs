//! Bounded capture of a child's output stream: keeps the head and the tail, counts the rest.

use std::collections::VecDeque;

use tokio::io::{AsyncRead, AsyncReadExt};

use super::result::{Captured, LogLine, LogSink, Stream};

/// Largest tail kept when output is truncated (the final `REWARD:` line lives there).
const TAIL_BYTES: usize = 64 * 1024;

/// Longest piece of a line sent live.
const LIVE_LINE_BYTES: usize = 8 * 1024;

/// Splits a byte stream into lines for a [`LogSink`].
struct LiveLines {
    sink: LogSink,
    stream: Stream,
    pending: Vec<u8>,
}

impl LiveLines {
    fn push(&mut self, mut chunk: &[u8]) {
        while let Some(pos) = chunk.iter().position(|b| *b == b'\n') {
            self.pending.extend_from_slice(&chunk[..pos]);
            self.flush();
            chunk = &chunk[pos + 1..];
        }
        self.pending.extend_from_slice(chunk);
        while self.pending.len() >= LIVE_LINE_BYTES {
            let rest = self.pending.split_off(LIVE_LINE_BYTES);
            self.flush();
            self.pending = rest;
        }
    }

    fn flush(&mut self) {
        let line = String::from_utf8_lossy(&self.pending).into_owned();
        self.pending.clear();
        // A full or closed receiver drops the line: the capture keeps the output regardless.
        let _ = self.sink.try_send(LogLine {
            stream: self.stream,
            line,
        });
    }
}

/// Read `reader` to the end, keeping at most about `limit` bytes; with `live`, also send each
/// line to the sink as it arrives.
pub async fn capture<R: AsyncRead + Unpin>(
    mut reader: R,
    limit: usize,
    live: Option<(LogSink, Stream)>,
) -> Captured {
    let mut live = live.map(|(sink, stream)| LiveLines {
        sink,
        stream,
        pending: Vec::new(),
    });
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
        if let Some(l) = live.as_mut() {
            l.push(&buf[..n]);
        }
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
    if let Some(l) = live.as_mut().filter(|l| !l.pending.is_empty()) {
        l.flush();
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
        let c = capture(&b"hello\nREWARD: 1\n"[..], 1024, None).await;
        assert_eq!(c.text, "hello\nREWARD: 1\n");
        assert!(!c.truncated);
        assert_eq!(c.total_bytes, 16);
    }

    #[tokio::test]
    async fn large_output_keeps_head_and_tail() {
        let mut data = vec![b'x'; 10_000];
        data.extend_from_slice(b"\nREWARD: 0.5\n");
        let c = capture(&data[..], 1000, None).await;
        assert!(c.truncated);
        assert_eq!(c.total_bytes, data.len() as u64);
        assert!(c.text.starts_with("xxxx"));
        assert!(c.text.ends_with("REWARD: 0.5\n"));
        assert!(c.text.contains("bytes of output dropped"));
        assert!(c.text.len() < 1100);
    }

    #[tokio::test]
    async fn live_lines_are_split_and_flushed() {
        let (tx, mut rx) = tokio::sync::mpsc::channel(16);
        let c = capture(&b"a\nbb\nccc"[..], 1024, Some((tx, Stream::Stderr))).await;
        assert_eq!(c.text, "a\nbb\nccc");
        let mut got = Vec::new();
        while let Ok(l) = rx.try_recv() {
            assert_eq!(l.stream, Stream::Stderr);
            got.push(l.line);
        }
        assert_eq!(got, ["a", "bb", "ccc"]);
    }
}
