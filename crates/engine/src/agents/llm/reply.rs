//! The fenced-block reply format of the prompts:
//!
//! ````text
//! ```initial_setup.py
//! ...
//! ```
//! ````
//!
//! A block is named by a `*.py` token of its info string (```` ```initial_setup.py ````,
//! ```` ```python initial_setup.py ````, ```` ```python file=initial_setup.py ````) or, failing that,
//! by a first line `# initial_setup.py` / `# file: initial_setup.py`.

/// One fenced block of a reply.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// The file name the block is tagged with, if any.
    pub name: Option<String>,
    /// The language/info string as written.
    pub info: String,
    /// The block's text, ending with a newline.
    pub body: String,
}

/// Splits `text` into its fenced blocks. An unterminated block is an error naming its opening line.
pub fn fenced_blocks(text: &str) -> Result<Vec<Block>, String> {
    let mut blocks = Vec::new();
    let mut open: Option<(usize, String, String, Vec<&str>)> = None;
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        match &mut open {
            None => {
                if let Some(fence) = fence_of(trimmed) {
                    let info = trimmed[fence.len()..].trim().to_string();
                    open = Some((n + 1, fence, info, Vec::new()));
                }
            }
            Some((_, fence, info, body)) => {
                if trimmed.trim_end() == fence.as_str() {
                    let body_text = join_lines(body);
                    let name = name_of(info, &body_text);
                    blocks.push(Block {
                        name,
                        info: info.clone(),
                        body: body_text,
                    });
                    open = None;
                } else {
                    body.push(line);
                }
            }
        }
    }
    if let Some((line, fence, info, _)) = open {
        return Err(format!(
            "the fenced block `{fence}{info}` opened at line {line} is never closed with `{fence}`"
        ));
    }
    Ok(blocks)
}

fn fence_of(line: &str) -> Option<String> {
    let n = line.chars().take_while(|&c| c == '`').count();
    (n >= 3).then(|| "`".repeat(n))
}

fn join_lines(lines: &[&str]) -> String {
    let mut s = lines.join("\n");
    s.push('\n');
    s
}

fn name_of(info: &str, body: &str) -> Option<String> {
    let from_info = info
        .split(|c: char| c.is_whitespace() || c == ',')
        .map(|t| {
            let t = t.trim_matches(|c| c == '"' || c == '\'' || c == '{' || c == '}');
            t.rsplit_once('=').map_or(t, |(_, v)| v.trim_matches('"'))
        })
        .find(|t| t.ends_with(".py"));
    if let Some(name) = from_info {
        return Some(name.trim_start_matches("./").to_string());
    }
    let first = body.lines().next()?.trim();
    let rest = first.strip_prefix('#')?.trim();
    let rest = rest.strip_prefix("file:").map_or(rest, str::trim);
    (rest.ends_with(".py") && !rest.contains(' ')).then(|| rest.to_string())
}

/// Picks the named files out of `text`. `single_fallback`: when exactly one file is wanted and the
/// reply holds exactly one unnamed python block, that block is taken as the file.
pub fn extract_files(
    text: &str,
    wanted: &[&str],
    single_fallback: bool,
) -> Result<Vec<(String, String)>, String> {
    let blocks = fenced_blocks(text)?;
    let mut found = Vec::new();
    for w in wanted {
        // The last block of a name wins (a model restating a corrected file).
        if let Some(b) = blocks.iter().rev().find(|b| b.name.as_deref() == Some(*w)) {
            found.push((w.to_string(), b.body.clone()));
        }
    }
    if found.is_empty() && single_fallback && wanted.len() == 1 {
        let unnamed: Vec<&Block> = blocks
            .iter()
            .filter(|b| b.name.is_none() && matches!(b.info.as_str(), "" | "python" | "py"))
            .collect();
        if let [only] = unnamed.as_slice() {
            found.push((wanted[0].to_string(), only.body.clone()));
        }
    }
    let strays: Vec<String> = blocks
        .iter()
        .filter_map(|b| b.name.clone())
        .filter(|n| !wanted.contains(&n.as_str()))
        .collect();
    if found.is_empty() && !strays.is_empty() {
        return Err(format!(
            "the reply has blocks named {} but this agent writes only {}",
            strays.join(", "),
            wanted.join(", ")
        ));
    }
    Ok(found)
}
