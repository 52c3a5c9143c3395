//! Reading a model's reply: the JSON object a critic, a judge or a verdict answers with, found
//! among fences and prose.

/// The first balanced top-level JSON object in `text` (fences and prose around it are ignored).
pub fn extract_object(text: &str) -> Option<&str> {
    let bytes = text.as_bytes();
    let mut start = None;
    let (mut depth, mut in_str, mut escaped) = (0usize, false, false);
    for (i, &b) in bytes.iter().enumerate() {
        if start.is_none() {
            if b == b'{' {
                start = Some(i);
                depth = 1;
            }
            continue;
        }
        if in_str {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_str = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_str = true,
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return start.map(|s| &text[s..=i]);
                }
            }
            _ => {}
        }
    }
    None
}
