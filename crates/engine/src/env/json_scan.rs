//! One pass over a request body that is a JSON object: it checks the grammar of the whole text
//! and notes, for each top-level member, where its key and value are and whether the value has
//! whitespace between its tokens. `POST /post` reads its body with it, so a `set_current` is
//! validated and its compaction decided by the same scan (before, serde_json validated the body
//! and a second scan looked for whitespace).
//!
//! It is conservative: it accepts only text that serde_json accepts as well, and answers `None`
//! for anything it is not sure of (a syntax error, a lone surrogate escape, deep nesting, an
//! escaped key). The caller then reads the body with serde_json, which gives the error message
//! or, for the rare valid text refused here, the same result. The agreement with serde_json is
//! tested on mutated documents (`post_body` tests).

use std::ops::Range;

/// Nesting deeper than this is left to serde_json (its own limit is 128).
const MAX_DEPTH: usize = 100;

/// A top-level member of the scanned object.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// The key's text between its quotes (no escapes in it).
    pub key: Range<usize>,
    /// The value's text.
    pub value: Range<usize>,
    /// Whether the value's text has whitespace between its tokens.
    pub spaced: bool,
}

/// The members of `text` when it is, for certain, one valid JSON object (whitespace around it
/// allowed); `None` otherwise.
pub fn scan_object(text: &[u8]) -> Option<Vec<Member>> {
    let mut s = Scanner { t: text, i: 0 };
    s.ws();
    s.eat(b'{')?;
    let mut members = Vec::new();
    s.ws();
    if s.peek()? == b'}' {
        s.i += 1;
    } else {
        loop {
            s.ws();
            s.eat(b'"')?;
            let start = s.i;
            if s.string_body()? {
                return None;
            }
            let key = start..s.i - 1;
            s.ws();
            s.eat(b':')?;
            s.ws();
            let start = s.i;
            let spaced = s.value()?;
            members.push(Member {
                key,
                value: start..s.i,
                spaced,
            });
            s.ws();
            match s.bump()? {
                b',' => {}
                b'}' => break,
                _ => return None,
            }
        }
    }
    s.ws();
    (s.i == text.len()).then_some(members)
}

struct Scanner<'a> {
    t: &'a [u8],
    i: usize,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.t.get(self.i).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.i += 1;
        Some(c)
    }

    fn eat(&mut self, want: u8) -> Option<()> {
        (self.bump()? == want).then_some(())
    }

    /// Skips whitespace; whether there was any.
    fn ws(&mut self) -> bool {
        let from = self.i;
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.i += 1;
        }
        self.i > from
    }

    /// One value, containers walked with a stack of their kinds; whether it had whitespace.
    fn value(&mut self) -> Option<bool> {
        let mut stack: Vec<u8> = Vec::new();
        let mut spaced = false;
        loop {
            spaced |= self.ws();
            match self.peek()? {
                open @ (b'{' | b'[') => {
                    self.i += 1;
                    spaced |= self.ws();
                    let close = if open == b'{' { b'}' } else { b']' };
                    if self.peek()? == close {
                        self.i += 1;
                    } else {
                        stack.push(open);
                        if stack.len() > MAX_DEPTH {
                            return None;
                        }
                        if open == b'{' {
                            spaced |= self.key()?;
                        }
                        continue;
                    }
                }
                b'"' => {
                    self.i += 1;
                    self.string_body()?;
                }
                b't' => self.literal(b"true")?,
                b'f' => self.literal(b"false")?,
                b'n' => self.literal(b"null")?,
                b'-' | b'0'..=b'9' => self.number()?,
                _ => return None,
            }
            // A value is complete: close the containers it completes, or go on to the next.
            loop {
                let Some(&top) = stack.last() else {
                    return Some(spaced);
                };
                spaced |= self.ws();
                match (self.bump()?, top) {
                    (b',', b'{') => {
                        spaced |= self.ws();
                        spaced |= self.key()?;
                        break;
                    }
                    (b',', b'[') => break,
                    (b'}', b'{') | (b']', b'[') => {
                        stack.pop();
                    }
                    _ => return None,
                }
            }
        }
    }

    /// A key and its colon; whether there was whitespace before the colon.
    fn key(&mut self) -> Option<bool> {
        self.eat(b'"')?;
        self.string_body()?;
        let spaced = self.ws();
        self.eat(b':')?;
        Some(spaced)
    }

    /// The rest of a string after its opening quote; whether it had escapes.
    fn string_body(&mut self) -> Option<bool> {
        let mut escaped = false;
        loop {
            self.i += special(&self.t[self.i..])?;
            match self.bump()? {
                b'"' => return Some(escaped),
                b'\\' => {
                    escaped = true;
                    self.escape()?;
                }
                _ => return None, // a control character
            }
        }
    }

    /// An escape after its backslash. `\u` escapes of surrogates must come in valid pairs.
    fn escape(&mut self) -> Option<()> {
        match self.bump()? {
            b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Some(()),
            b'u' => match self.hex4()? {
                0xD800..=0xDBFF => {
                    self.eat(b'\\')?;
                    self.eat(b'u')?;
                    matches!(self.hex4()?, 0xDC00..=0xDFFF).then_some(())
                }
                0xDC00..=0xDFFF => None,
                _ => Some(()),
            },
            _ => None,
        }
    }

    fn hex4(&mut self) -> Option<u32> {
        let digits = self.t.get(self.i..self.i + 4)?;
        let mut n = 0;
        for &d in digits {
            n = n * 16 + char::from(d).to_digit(16)?;
        }
        self.i += 4;
        Some(n)
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        let end = self.i + word.len();
        (self.t.get(self.i..end)? == word).then(|| self.i = end)
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    fn number(&mut self) -> Option<()> {
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.bump()? {
            b'0' => {}
            b'1'..=b'9' => self.digits(),
            _ => return None,
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            self.digit()?;
            self.digits();
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.i += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.i += 1;
            }
            self.digit()?;
            self.digits();
        }
        Some(())
    }

    fn digit(&mut self) -> Option<()> {
        self.bump()?.is_ascii_digit().then_some(())
    }

    fn digits(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
    }
}

const ONES: u64 = u64::from_le_bytes([1; 8]);
const HIGH: u64 = u64::from_le_bytes([0x80; 8]);

/// The high bit of each byte of `x` that is zero; the lowest such bit is exact (a borrow only
/// marks bytes above a zero one).
fn zero_bytes(x: u64) -> u64 {
    x.wrapping_sub(ONES) & !x & HIGH
}

/// The offset of the first `"` or `\\` in `t`, eight bytes at a time.
pub fn quote_or_backslash(t: &[u8]) -> Option<usize> {
    find(t, |w| {
        zero_bytes(w ^ (ONES * u64::from(b'"'))) | zero_bytes(w ^ (ONES * u64::from(b'\\')))
    })
}

/// The offset of the first `"`, `\\` or control character (below 0x20) in `t`: what ends the
/// plain run of a string's contents.
fn special(t: &[u8]) -> Option<usize> {
    find(t, |w| {
        let below_space = w.wrapping_sub(ONES * 0x20) & !w & HIGH;
        zero_bytes(w ^ (ONES * u64::from(b'"')))
            | zero_bytes(w ^ (ONES * u64::from(b'\\')))
            | below_space
    })
}

/// The offset of the first byte of `t` that `hits` marks (its high bit set in the word's mask,
/// lowest byte exact), eight bytes at a time, then byte by byte for the tail.
fn find(t: &[u8], hits: impl Fn(u64) -> u64) -> Option<usize> {
    let chunks = t.chunks_exact(8);
    let tail = chunks.remainder();
    for (n, chunk) in chunks.enumerate() {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let hit = hits(u64::from_le_bytes(word));
        if hit != 0 {
            return Some(n * 8 + (hit.trailing_zeros() / 8) as usize);
        }
    }
    let done = t.len() - tail.len();
    let mut padded = [b'a'; 8];
    padded[..tail.len()].copy_from_slice(tail);
    let hit = hits(u64::from_le_bytes(padded));
    (hit != 0).then(|| done + (hit.trailing_zeros() / 8) as usize)
}

#[cfg(test)]
#[path = "json_scan_tests.rs"]
mod tests;
