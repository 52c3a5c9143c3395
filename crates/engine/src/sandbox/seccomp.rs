//! The seccomp filter bubblewrap installs before it executes a script (`--add-seccomp-fd`): the
//! system calls agent-written Python never needs and that widen the kernel's attack surface are
//! refused with `EPERM`; `clone3` gets `ENOSYS` so the C library falls back to `clone`, whose
//! flags the filter can inspect (a `clone` asking for a new namespace is refused).
//!
//! Two programs: [`programs`] returns the deny-list (`EPERM`) and the `clone3` one (`ENOSYS`);
//! the kernel runs both and the strictest answer wins. Built with `seccompiler` for the host's
//! architecture; on an architecture it does not know the runner goes on without a filter and
//! says so on the result.

use std::collections::BTreeMap;
use std::io::{Seek, Write};

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

/// The system calls refused with `EPERM` outright (name, number on this architecture).
pub const DENIED: &[(&str, libc::c_long)] = &[
    ("io_uring_setup", libc::SYS_io_uring_setup),
    ("io_uring_enter", libc::SYS_io_uring_enter),
    ("io_uring_register", libc::SYS_io_uring_register),
    ("keyctl", libc::SYS_keyctl),
    ("add_key", libc::SYS_add_key),
    ("request_key", libc::SYS_request_key),
    ("bpf", libc::SYS_bpf),
    ("perf_event_open", libc::SYS_perf_event_open),
    ("userfaultfd", libc::SYS_userfaultfd),
    ("mount", libc::SYS_mount),
    ("umount2", libc::SYS_umount2),
    ("pivot_root", libc::SYS_pivot_root),
    ("chroot", libc::SYS_chroot),
    ("move_mount", libc::SYS_move_mount),
    ("open_tree", libc::SYS_open_tree),
    ("fsopen", libc::SYS_fsopen),
    ("fsconfig", libc::SYS_fsconfig),
    ("fsmount", libc::SYS_fsmount),
    ("fspick", libc::SYS_fspick),
    ("mount_setattr", libc::SYS_mount_setattr),
    ("unshare", libc::SYS_unshare),
    ("setns", libc::SYS_setns),
    ("ptrace", libc::SYS_ptrace),
    ("process_vm_readv", libc::SYS_process_vm_readv),
    ("process_vm_writev", libc::SYS_process_vm_writev),
    ("kexec_load", libc::SYS_kexec_load),
    ("kexec_file_load", libc::SYS_kexec_file_load),
    ("init_module", libc::SYS_init_module),
    ("finit_module", libc::SYS_finit_module),
    ("delete_module", libc::SYS_delete_module),
    ("reboot", libc::SYS_reboot),
    ("swapon", libc::SYS_swapon),
    ("swapoff", libc::SYS_swapoff),
    ("acct", libc::SYS_acct),
    ("quotactl", libc::SYS_quotactl),
    ("syslog", libc::SYS_syslog),
    ("name_to_handle_at", libc::SYS_name_to_handle_at),
    ("open_by_handle_at", libc::SYS_open_by_handle_at),
    ("fanotify_init", libc::SYS_fanotify_init),
    // System V shared memory and message queues live until the IPC namespace dies and are
    // bounded by no rlimit; Python's multiprocessing uses POSIX shm (/dev/shm, size-limited).
    ("shmget", libc::SYS_shmget),
    ("msgget", libc::SYS_msgget),
];

/// `clone` flags that create a namespace; a `clone` with any of them is refused.
const NAMESPACE_FLAGS: &[u64] = &[
    libc::CLONE_NEWNS as u64,
    libc::CLONE_NEWCGROUP as u64,
    libc::CLONE_NEWUTS as u64,
    libc::CLONE_NEWIPC as u64,
    libc::CLONE_NEWUSER as u64,
    libc::CLONE_NEWPID as u64,
    libc::CLONE_NEWNET as u64,
    0x80, // CLONE_NEWTIME
];

/// `ioctl(fd, TIOCSTI, ...)` pushes input into a terminal: refused too.
const TIOCSTI: u64 = 0x5412;

/// x32 system calls share the x86-64 audit arch but carry this bit; refused before anything.
const X32_SYSCALL_BIT: u32 = 0x4000_0000;

/// Why no filter could be built.
#[derive(Debug, thiserror::Error)]
#[error("seccomp filter unavailable: {0}")]
pub struct SeccompError(String);

fn arch() -> Result<TargetArch, SeccompError> {
    TargetArch::try_from(std::env::consts::ARCH).map_err(|e| SeccompError(e.to_string()))
}

fn rule(conditions: Vec<SeccompCondition>) -> Result<SeccompRule, SeccompError> {
    SeccompRule::new(conditions).map_err(|e| SeccompError(e.to_string()))
}

fn masked(arg: u8, mask: u64, value: u64) -> Result<SeccompCondition, SeccompError> {
    SeccompCondition::new(
        arg,
        SeccompCmpArgLen::Qword,
        SeccompCmpOp::MaskedEq(mask),
        value,
    )
    .map_err(|e| SeccompError(e.to_string()))
}

fn compile(
    rules: BTreeMap<i64, Vec<SeccompRule>>,
    errno: i32,
    arch: TargetArch,
) -> Result<BpfProgram, SeccompError> {
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(errno as u32),
        arch,
    )
    .map_err(|e| SeccompError(e.to_string()))?;
    BpfProgram::try_from(filter).map_err(|e| SeccompError(e.to_string()))
}

/// The deny-list program (`EPERM`).
pub fn deny_program() -> Result<BpfProgram, SeccompError> {
    let arch = arch()?;
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> =
        DENIED.iter().map(|(_, nr)| (*nr, Vec::new())).collect();
    let clone_rules = NAMESPACE_FLAGS
        .iter()
        .map(|flag| masked(0, *flag, *flag).and_then(|c| rule(vec![c])))
        .collect::<Result<Vec<_>, _>>()?;
    rules.insert(libc::SYS_clone, clone_rules);
    let tiocsti = masked(1, 0xffff_ffff, TIOCSTI)?;
    rules.insert(libc::SYS_ioctl, vec![rule(vec![tiocsti])?]);
    let body = compile(rules, libc::EPERM, arch)?;
    let mut prog = Vec::with_capacity(body.len() + 3);
    if matches!(arch, TargetArch::x86_64) {
        // ld [nr]; jge X32_SYSCALL_BIT ? next : skip; ret ERRNO(EPERM)
        prog.push(stmt(0x20, 0));
        prog.push(seccompiler::sock_filter {
            code: 0x05 | 0x30,
            jt: 0,
            jf: 1,
            k: X32_SYSCALL_BIT,
        });
        prog.push(stmt(0x06, libc::SECCOMP_RET_ERRNO | libc::EPERM as u32));
    }
    prog.extend(body);
    Ok(prog)
}

/// The `clone3` program (`ENOSYS`: the C library then uses `clone`, which the deny-list checks).
pub fn clone3_program() -> Result<BpfProgram, SeccompError> {
    let rules = BTreeMap::from([(libc::SYS_clone3, Vec::new())]);
    compile(rules, libc::ENOSYS, arch()?)
}

fn stmt(code: u16, k: u32) -> seccompiler::sock_filter {
    seccompiler::sock_filter {
        code,
        jt: 0,
        jf: 0,
        k,
    }
}

/// The raw bytes of a program, as bubblewrap reads them from its descriptor.
pub fn program_bytes(prog: &BpfProgram) -> Vec<u8> {
    let mut out = Vec::with_capacity(prog.len() * 8);
    for ins in prog {
        out.extend_from_slice(&ins.code.to_ne_bytes());
        out.push(ins.jt);
        out.push(ins.jf);
        out.extend_from_slice(&ins.k.to_ne_bytes());
    }
    out
}

/// Both programs, each in an unlinked temporary file positioned at its start (handed to
/// bubblewrap as `--add-seccomp-fd`).
pub fn program_files() -> Result<Vec<std::fs::File>, SeccompError> {
    [deny_program()?, clone3_program()?]
        .iter()
        .map(|prog| {
            let mut f = tempfile::tempfile().map_err(|e| SeccompError(e.to_string()))?;
            f.write_all(&program_bytes(prog))
                .and_then(|_| f.rewind())
                .map_err(|e| SeccompError(e.to_string()))?;
            Ok(f)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_compile_for_this_machine_and_cover_every_denied_call() {
        let deny = deny_program().unwrap();
        // Every denied number appears as a comparison operand in the program.
        for (name, nr) in DENIED {
            assert!(
                deny.iter().any(|i| i.code == 0x15 && i.k == *nr as u32),
                "{name} ({nr}) missing from the filter"
            );
        }
        assert_eq!(program_bytes(&deny).len(), deny.len() * 8);
        assert!(clone3_program().unwrap().len() > 3);
    }
}
