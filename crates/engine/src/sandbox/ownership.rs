//! Host-side ownership: the environment's home and the forwarder socket belong to the run's uid.

use std::os::unix::fs::MetadataExt;
use std::path::Path;

/// Make the environment's home writable by the sandbox uid (when the engine runs as root, files
/// not yet owned by that uid are chowned; symlinks are not followed).
pub fn hand_home_to(home: &Path, uid: u32, notes: &mut Vec<String>) -> std::io::Result<()> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return Ok(());
    }
    let mut changed = 0usize;
    for entry in walkdir::WalkDir::new(home).follow_links(false) {
        let entry = entry.map_err(std::io::Error::other)?;
        let meta = entry.path().symlink_metadata()?;
        if meta.uid() == uid && meta.gid() == uid {
            continue;
        }
        std::os::unix::fs::lchown(entry.path(), Some(uid), Some(uid))?;
        changed += 1;
    }
    if changed > 0 {
        notes.push(format!(
            "gave {changed} home entries to sandbox uid {uid} so the script can write them"
        ));
    }
    Ok(())
}

/// Give the forwarder socket to the sandbox uid with mode 0600 (connect needs write permission).
pub fn restrict_socket(path: &Path, uid: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::os::unix::fs::lchown(path, Some(uid), Some(uid))?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
}
