//! [`Chunks`]: a response body made of shared buffers, sent as they are (vectored writes) with
//! an exact `Content-Length`, so a `/go` response references the cached snapshot texts instead
//! of holding a second copy of them.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::{Bytes, HttpBody};
use http_body::{Frame, SizeHint};

/// A body of several [`Bytes`], in order.
#[derive(Debug, Clone, Default)]
pub struct Chunks {
    parts: VecDeque<Bytes>,
    remaining: u64,
}

impl Chunks {
    /// The body made of `parts` (empty parts are skipped).
    pub fn new(parts: impl IntoIterator<Item = Bytes>) -> Chunks {
        let parts: VecDeque<Bytes> = parts.into_iter().filter(|b| !b.is_empty()).collect();
        let remaining = parts.iter().map(|b| b.len() as u64).sum();
        Chunks { parts, remaining }
    }

    /// Total length in bytes.
    pub fn len(&self) -> u64 {
        self.remaining
    }

    /// Whether the body is empty.
    pub fn is_empty(&self) -> bool {
        self.remaining == 0
    }

    /// The parts, in order.
    pub fn parts(&self) -> impl Iterator<Item = &Bytes> {
        self.parts.iter()
    }

    /// The body as one buffer (copies unless it is a single part).
    pub fn to_bytes(&self) -> Bytes {
        if self.parts.len() == 1 {
            return self.parts[0].clone();
        }
        let mut out = Vec::with_capacity(self.remaining as usize);
        for p in &self.parts {
            out.extend_from_slice(p);
        }
        Bytes::from(out)
    }
}

impl HttpBody for Chunks {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        let next = self.parts.pop_front();
        if let Some(b) = &next {
            self.remaining -= b.len() as u64;
        }
        Poll::Ready(next.map(|b| Ok(Frame::data(b))))
    }

    fn is_end_stream(&self) -> bool {
        self.parts.is_empty()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.remaining)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn chunks_concatenate_with_an_exact_length() {
        use http_body_util::BodyExt;
        let c = Chunks::new([
            Bytes::from_static(b"ab"),
            Bytes::new(),
            Bytes::from_static(b"cde"),
        ]);
        assert_eq!(c.len(), 5);
        assert_eq!(c.size_hint().exact(), Some(5));
        assert_eq!(c.to_bytes(), Bytes::from_static(b"abcde"));
        let all = c.collect().await.unwrap().to_bytes();
        assert_eq!(all, Bytes::from_static(b"abcde"));
    }
}
