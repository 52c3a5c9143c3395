//! The password of a VNC face (`env try`): off loopback x11vnc is started with one (VNC
//! authentication, security type 2); on loopback it needs none. VNC authentication uses at most 8
//! characters of a password, so a longer one is refused rather than silently cut.

use std::net::IpAddr;
use std::path::Path;

use rand::Rng;

use super::AccessError;

/// Characters of a generated password (no look-alikes).
const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/// A fresh 8-character password.
pub fn generate_password() -> String {
    let mut rng = rand::rng();
    (0..8)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

/// The password in `path` (one line of 6-8 printable ASCII characters).
pub fn password_from_file(path: &Path) -> Result<String, AccessError> {
    let origin = format!("VNC password file {}", path.display());
    let bad = |why: String| AccessError::BadToken {
        origin: origin.clone(),
        why,
    };
    let text = std::fs::read_to_string(path).map_err(|e| bad(format!("cannot be read: {e}")))?;
    let p = text.strip_suffix('\n').unwrap_or(&text);
    if let Some((i, c)) = p.char_indices().find(|(_, c)| !c.is_ascii_graphic()) {
        return Err(bad(format!(
            "character {c:?} at byte {i}: a VNC password is one line of printable ASCII"
        )));
    }
    if !(6..=8).contains(&p.len()) {
        return Err(bad(format!(
            "it has {} characters; VNC authentication uses 6 to 8",
            p.len()
        )));
    }
    Ok(p.to_string())
}

/// The password a VNC face on `host` uses: the file's, else a generated one off loopback, else
/// none (loopback).
pub fn password_for(host: IpAddr, file: Option<&Path>) -> Result<Option<String>, AccessError> {
    match file {
        Some(f) => password_from_file(f).map(Some),
        None if super::is_loopback(host) => Ok(None),
        None => Ok(Some(generate_password())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn off_loopback_a_password_is_always_set_and_files_are_checked() {
        let lo: IpAddr = "127.0.0.1".parse().unwrap();
        let any: IpAddr = "0.0.0.0".parse().unwrap();
        assert_eq!(password_for(lo, None).unwrap(), None);
        assert_eq!(password_for(any, None).unwrap().unwrap().len(), 8);
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("pw");
        std::fs::write(&f, "abc123xy\n").unwrap();
        assert_eq!(
            password_for(any, Some(&f)).unwrap().as_deref(),
            Some("abc123xy")
        );
        std::fs::write(&f, "much-too-long\n").unwrap();
        let e = password_for(lo, Some(&f)).unwrap_err().to_string();
        assert!(
            e.contains("13 characters") && e.contains(&f.display().to_string()),
            "{e}"
        );
    }
}
