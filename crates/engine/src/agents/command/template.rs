//! Expansion of the `{placeholder}` templates of a command agent. `{{` and `}}` stand for literal
//! braces; an unknown placeholder is an error (caught by `validate` before any run).

/// The placeholders a template may use.
pub const PLACEHOLDERS: &[&str] = &[
    "prompt",
    "prompt_file",
    "workdir",
    "output_file",
    "model",
    "max_turns",
];

/// The values placeholders expand to for one call.
#[derive(Debug, Clone, Default)]
pub struct Values {
    /// `{prompt}`.
    pub prompt: String,
    /// `{prompt_file}`.
    pub prompt_file: String,
    /// `{workdir}`.
    pub workdir: String,
    /// `{output_file}`.
    pub output_file: String,
    /// `{model}`.
    pub model: String,
    /// `{max_turns}`.
    pub max_turns: String,
}

impl Values {
    fn get(&self, key: &str) -> Option<&str> {
        Some(match key {
            "prompt" => &self.prompt,
            "prompt_file" => &self.prompt_file,
            "workdir" => &self.workdir,
            "output_file" => &self.output_file,
            "model" => &self.model,
            "max_turns" => &self.max_turns,
            _ => return None,
        })
    }
}

fn expand_with(
    template: &str,
    mut lookup: impl FnMut(&str) -> Option<String>,
) -> Result<String, String> {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(i) = rest.find(['{', '}']) {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        if tail.starts_with("{{") || tail.starts_with("}}") {
            out.push_str(&tail[..1]);
            rest = &tail[2..];
            continue;
        }
        if tail.starts_with('}') {
            return Err("a lone `}` (write `}}` for a literal brace)".into());
        }
        let Some(end) = tail.find('}') else {
            return Err("a `{` that is never closed (write `{{` for a literal brace)".into());
        };
        let key = &tail[1..end];
        match lookup(key) {
            Some(v) => out.push_str(&v),
            None => {
                return Err(format!(
                    "unknown placeholder `{{{key}}}` (known: {})",
                    PLACEHOLDERS.join(", ")
                ))
            }
        }
        rest = &tail[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// Checks that `template` uses only known placeholders and balanced braces.
pub fn check(template: &str) -> Result<(), String> {
    expand_with(template, |k| PLACEHOLDERS.contains(&k).then(String::new)).map(|_| ())
}

/// Expands `template` with `values`.
pub fn expand(template: &str, values: &Values) -> Result<String, String> {
    expand_with(template, |k| values.get(k).map(str::to_string))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expands_known_placeholders_inside_one_argument() {
        let v = Values {
            workdir: "/w".into(),
            max_turns: "7".into(),
            ..Values::default()
        };
        assert_eq!(expand("--cd={workdir}", &v).unwrap(), "--cd=/w");
        assert_eq!(expand("{max_turns}", &v).unwrap(), "7");
        assert_eq!(expand("{{literal}}", &v).unwrap(), "{literal}");
    }

    #[test]
    fn rejects_unknown_and_unbalanced() {
        assert!(check("{promt}")
            .unwrap_err()
            .contains("unknown placeholder `{promt}`"));
        assert!(check("x{").is_err());
        assert!(check("x}").is_err());
        assert!(check("{prompt_file}").is_ok());
    }
}
