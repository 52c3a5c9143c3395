//! GUI launch lines of setup scripts on a guest's screen: a script run on the guest that starts
//! `google-chrome …`, `DISPLAY=:0 xdg-open …` or `libreoffice …` (published setups do) has the
//! launch recorded by the sandbox's stub (`sandbox::localise::gui_launches`), and the guest then
//! starts it **on its screen**, outside the script's sandbox (which dies with the script), like
//! `/setup/launch`: Chrome/Chromium names become the configured Chromium (with the flags a
//! container needs), other programs run when installed. The `DISPLAY` a script names is
//! ignored: the program opens on the environment's display.

use std::path::PathBuf;

use super::command::GuestCommand;
use super::guest::Guest;
use crate::sandbox::localise::gui_launches;

/// Programs that only act on windows (they ran as stubs and have nothing to open).
const WINDOW_TOOLS: [&str; 2] = ["xdotool", "wmctrl"];

/// The argv that opens `line` (`program arg…`, as the stub recorded it) on a screen, or why not.
pub fn argv_for(line: &str, chromium: &std::path::Path) -> Result<Vec<String>, String> {
    let mut words = line.split_whitespace().map(str::to_string);
    let program = words.next().ok_or("an empty launch line")?;
    let args: Vec<String> = words.collect();
    if WINDOW_TOOLS.contains(&program.as_str()) {
        return Err(format!("{program} acts on windows; nothing to open"));
    }
    if matches!(
        program.as_str(),
        "google-chrome" | "google-chrome-stable" | "chromium" | "chromium-browser"
    ) {
        let mut argv = vec![chromium.display().to_string()];
        argv.extend(
            [
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-dev-shm-usage",
                "--user-data-dir=/tmp/tw-chromium",
            ]
            .map(String::from),
        );
        argv.extend(args);
        return Ok(argv);
    }
    let found = ["/usr/bin", "/usr/local/bin", "/bin"]
        .iter()
        .map(|d| PathBuf::from(d).join(&program))
        .find(|p| p.is_file())
        .ok_or_else(|| format!("{program} is not installed on this guest"))?;
    let mut argv = vec![found.display().to_string()];
    argv.extend(args);
    Ok(argv)
}

/// Starts the GUI launches `notes` record on `guest`'s screen; returns one note per launch.
pub fn open_launches(guest: &Guest, notes: &[String]) -> Vec<String> {
    gui_launches(notes)
        .iter()
        .map(
            |line| match argv_for(line, &guest.screen_config().chromium) {
                Ok(argv) => match guest.launch(&GuestCommand::Argv(argv)) {
                    Ok(()) => format!("gui launch opened on the screen: {line}"),
                    Err(e) => format!("gui launch failed on the screen ({e}): {line}"),
                },
                Err(why) => format!("gui launch not opened ({why}): {line}"),
            },
        )
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chrome_names_become_chromium_and_window_tools_open_nothing() {
        let argv = argv_for(
            "google-chrome --new-window https://cua-gym-gmail.xlang.ai/?sid=1",
            std::path::Path::new("chromium"),
        )
        .unwrap();
        assert_eq!(argv[0], "chromium");
        assert!(argv.contains(&"--no-sandbox".to_string()));
        assert_eq!(
            argv.last().unwrap(),
            "https://cua-gym-gmail.xlang.ai/?sid=1"
        );
        assert!(
            argv_for("xdotool search --name Gmail", std::path::Path::new("c"))
                .unwrap_err()
                .contains("acts on windows")
        );
        assert!(
            argv_for("no-such-program-here x", std::path::Path::new("c"))
                .unwrap_err()
                .contains("not installed")
        );
    }
}
