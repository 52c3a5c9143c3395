//! What the guest runs, as Python wrappers for the sandbox: an OSWorld command (`{command, shell}`,
//! a list or a string), a Python program, a bash script, and the file operations of `/file`,
//! `/setup/upload` and `/list_directory`. Every wrapper is standard-library Python that the
//! sandbox runs as the environment's unprivileged uid, so a path means what it means to the
//! guest's programs (its `/home/user`, its private `/tmp`) and nothing of the host is reachable.
//! Inputs travel base64-encoded inside the wrapper (never spliced into code).

use base64::Engine as _;
use serde_json::Value;

use super::OsworldError;

/// Where the environment's home is inside the guest.
pub const GUEST_HOME: &str = "/home/user";

/// A command as `/execute` and `/setup/launch` take it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GuestCommand {
    /// Program and arguments (`shell: false`); `~/` at the start of an argument is the home.
    Argv(Vec<String>),
    /// A `/bin/sh -c` command line (`shell: true`), with any further list items as `$0…`.
    Shell(Vec<String>),
}

impl GuestCommand {
    /// Reads `{command, shell}` as OSWorld's server does: a string without `shell` is split like
    /// a shell would (`shlex`), a list is taken as is.
    pub fn from_request(body: &Value) -> Result<GuestCommand, OsworldError> {
        let shell = body.get("shell").and_then(Value::as_bool).unwrap_or(false);
        let items: Vec<String> = match body.get("command") {
            Some(Value::String(s)) if shell => vec![s.clone()],
            Some(Value::String(s)) => shlex::split(s).ok_or_else(|| {
                OsworldError::BadRequest(format!(
                    "command {s:?} is not a valid shell word list (unbalanced quotes?)"
                ))
            })?,
            Some(Value::Array(a)) => a
                .iter()
                .enumerate()
                .map(|(i, v)| match v {
                    Value::String(s) => Ok(s.clone()),
                    other => Err(OsworldError::BadRequest(format!(
                        "command[{i}] must be a string, got {other}"
                    ))),
                })
                .collect::<Result<_, _>>()?,
            Some(other) => {
                return Err(OsworldError::BadRequest(format!(
                    "command must be a list of strings or a string, got {other}"
                )))
            }
            None => return Err(OsworldError::BadRequest("command is missing".into())),
        };
        if items.is_empty() || items[0].is_empty() {
            return Err(OsworldError::BadRequest("command is empty".into()));
        }
        Ok(if shell {
            GuestCommand::Shell(items)
        } else {
            GuestCommand::Argv(items.into_iter().map(|a| expand_home(&a)).collect())
        })
    }

    /// The argument vector the guest executes.
    pub fn argv(&self) -> Vec<String> {
        match self {
            GuestCommand::Argv(a) => a.clone(),
            GuestCommand::Shell(items) => {
                let mut v = vec!["/bin/sh".to_string(), "-c".to_string()];
                v.extend(items.iter().cloned());
                v
            }
        }
    }

    /// A short label for logs and launch names.
    pub fn label(&self) -> String {
        let prog = match self {
            GuestCommand::Argv(a) => &a[0],
            GuestCommand::Shell(items) => &items[0],
        };
        prog.chars().take(60).collect()
    }
}

/// `~/x` → `/home/user/x` (and `~` alone → the home), as the guest's user sees it.
pub fn expand_home(arg: &str) -> String {
    if arg == "~" {
        GUEST_HOME.to_string()
    } else if let Some(rest) = arg.strip_prefix("~/") {
        format!("{GUEST_HOME}/{rest}")
    } else {
        arg.to_string()
    }
}

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// A wrapper that runs `argv` (stdout and stderr passed through, its exit code the wrapper's),
/// in `cwd` when given, with `stderr` merged into stdout when asked (`/run_bash_script`).
pub fn exec_wrapper(argv: &[String], cwd: Option<&str>, merge_stderr: bool) -> String {
    let argv = b64(serde_json::to_string(argv).unwrap_or_default().as_bytes());
    let cwd = b64(cwd.unwrap_or("").as_bytes());
    format!(
        "import base64, json, os, subprocess, sys\n\
         argv = json.loads(base64.b64decode('{argv}'))\n\
         cwd = base64.b64decode('{cwd}').decode() or None\n\
         if cwd is not None and not os.path.isdir(cwd):\n\
         \x20   sys.stderr.write('working directory does not exist: %s\\n' % cwd)\n\
         \x20   sys.exit(125)\n\
         sys.stdout.flush()\n\
         try:\n\
         \x20   rc = subprocess.call(argv, cwd=cwd, stdin=subprocess.DEVNULL{merge})\n\
         except FileNotFoundError as e:\n\
         \x20   sys.stderr.write('%s\\n' % e)\n\
         \x20   rc = 127\n\
         except PermissionError as e:\n\
         \x20   sys.stderr.write('%s\\n' % e)\n\
         \x20   rc = 126\n\
         sys.exit(rc if rc >= 0 else 128 - rc)\n",
        merge = if merge_stderr {
            ", stderr=subprocess.STDOUT"
        } else {
            ""
        }
    )
}

/// Exit code of [`read_wrapper`] and [`list_wrapper`] when the path does not exist.
pub const NOT_FOUND_EXIT: i32 = 44;
/// Exit code of the file wrappers when the path is of the wrong kind (a directory for `/file`).
pub const WRONG_KIND_EXIT: i32 = 45;

/// A wrapper printing the file at `path` (`~` expanded) base64-encoded on stdout.
pub fn read_wrapper(path: &str) -> String {
    format!(
        "import base64, os, sys\n\
         p = os.path.expandvars(os.path.expanduser(base64.b64decode('{p}').decode()))\n\
         if not os.path.exists(p):\n\
         \x20   sys.exit({NOT_FOUND_EXIT})\n\
         if os.path.isdir(p):\n\
         \x20   sys.exit({WRONG_KIND_EXIT})\n\
         with open(p, 'rb') as f:\n\
         \x20   data = f.read()\n\
         sys.stdout.write(base64.b64encode(data).decode())\n",
        p = b64(path.as_bytes())
    )
}

/// A wrapper writing `data` to `path` (`~` expanded; parent directories created), printing the
/// size written. A partial file is removed.
pub fn write_wrapper(path: &str, data: &[u8]) -> String {
    format!(
        "import base64, os, sys\n\
         p = os.path.expandvars(os.path.expanduser(base64.b64decode('{p}').decode()))\n\
         data = base64.b64decode('{d}')\n\
         d = os.path.dirname(p)\n\
         if d:\n\
         \x20   os.makedirs(d, exist_ok=True)\n\
         tmp = p + '.tw-upload'\n\
         try:\n\
         \x20   with open(tmp, 'wb') as f:\n\
         \x20       f.write(data)\n\
         \x20   os.replace(tmp, p)\n\
         except BaseException:\n\
         \x20   if os.path.exists(tmp):\n\
         \x20       os.remove(tmp)\n\
         \x20   raise\n\
         print(os.path.getsize(p))\n",
        p = b64(path.as_bytes()),
        d = b64(data)
    )
}

/// A wrapper printing the directory tree under `path` as OSWorld's `/list_directory` builds it
/// (`{type: directory, name, children}`, files as `{type: file, name}`) in JSON.
pub fn list_wrapper(path: &str) -> String {
    format!(
        "import base64, json, os, sys\n\
         p = os.path.expanduser(base64.b64decode('{p}').decode())\n\
         if not os.path.isdir(p):\n\
         \x20   sys.exit({NOT_FOUND_EXIT})\n\
         def tree(d):\n\
         \x20   t = {{'type': 'directory', 'name': os.path.basename(d), 'children': []}}\n\
         \x20   try:\n\
         \x20       for e in sorted(os.listdir(d)):\n\
         \x20           full = os.path.join(d, e)\n\
         \x20           if os.path.isdir(full) and not os.path.islink(full):\n\
         \x20               t['children'].append(tree(full))\n\
         \x20           else:\n\
         \x20               t['children'].append({{'type': 'file', 'name': e}})\n\
         \x20   except OSError as e:\n\
         \x20       t = {{'error': str(e)}}\n\
         \x20   return t\n\
         json.dump(tree(p), sys.stdout)\n",
        p = b64(path.as_bytes())
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_string_command_is_split_like_a_shell_and_home_is_expanded() {
        let c = GuestCommand::from_request(&json!({"command": "ls -l '~/a b' ~/x"})).unwrap();
        assert_eq!(c.argv(), vec!["ls", "-l", "/home/user/a b", "/home/user/x"]);
    }

    #[test]
    fn a_shell_command_runs_under_sh_c_unexpanded() {
        let c = GuestCommand::from_request(&json!({"command": "echo ~/x | wc", "shell": true}))
            .unwrap();
        assert_eq!(c.argv(), vec!["/bin/sh", "-c", "echo ~/x | wc"]);
    }

    #[test]
    fn bad_commands_name_what_was_wrong() {
        for (body, want) in [
            (json!({}), "command is missing"),
            (json!({"command": []}), "command is empty"),
            (json!({"command": ["ls", 3]}), "command[1] must be a string"),
            (
                json!({"command": {"a": 1}}),
                "must be a list of strings or a string",
            ),
            (
                json!({"command": "echo 'open"}),
                "not a valid shell word list",
            ),
        ] {
            let e = GuestCommand::from_request(&body).unwrap_err().to_string();
            assert!(e.contains(want), "{body}: {e}");
        }
    }

    #[test]
    fn wrappers_carry_inputs_encoded_never_as_code() {
        let evil = "x'); import os; os.system('boom'); ('";
        for src in [
            read_wrapper(evil),
            write_wrapper(evil, b"data"),
            list_wrapper(evil),
            exec_wrapper(&[evil.to_string()], Some(evil), false),
        ] {
            assert!(!src.contains("boom"), "{src}");
        }
    }
}
