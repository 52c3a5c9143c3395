//! The terminal wrapper: raw mode + alternate screen on entry, restored on drop and on panic.

use std::io::{self, Stdout};

use crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use crossterm::execute;
use crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use ratatui::backend::CrosstermBackend;
use ratatui::Terminal;

/// Owns the terminal while the workbench runs. Dropping it restores the terminal.
pub struct Tui {
    /// The ratatui terminal.
    pub terminal: Terminal<CrosstermBackend<Stdout>>,
    /// Mouse events are sent to the workbench (false: the terminal selects text).
    pub mouse_captured: bool,
}

/// Leaves raw mode and the alternate screen (safe to call more than once).
pub fn restore() {
    let _ = disable_raw_mode();
    let _ = execute!(
        io::stdout(),
        LeaveAlternateScreen,
        DisableMouseCapture,
        crossterm::cursor::Show
    );
}

impl Tui {
    /// Enters raw mode and the alternate screen and installs a panic hook that restores the
    /// terminal before the panic message is printed.
    pub fn enter() -> io::Result<Self> {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
        enable_raw_mode()?;
        let mut stdout = io::stdout();
        if let Err(e) = execute!(stdout, EnterAlternateScreen, EnableMouseCapture) {
            restore();
            return Err(e);
        }
        let terminal = Terminal::new(CrosstermBackend::new(stdout)).inspect_err(|_| restore())?;
        Ok(Tui {
            terminal,
            mouse_captured: true,
        })
    }

    /// Captures the mouse, or releases it to the terminal's own text selection.
    pub fn capture_mouse(&mut self, on: bool) -> io::Result<()> {
        if on {
            execute!(io::stdout(), EnableMouseCapture)?;
        } else {
            execute!(io::stdout(), DisableMouseCapture)?;
        }
        self.mouse_captured = on;
        Ok(())
    }
}

impl Tui {
    /// Hands the terminal to another program (issue #33: `$EDITOR`, `$PAGER`): leaves raw mode,
    /// the alternate screen and mouse capture, runs `f`, then takes the terminal back and redraws
    /// everything on the next frame.
    pub fn suspended<T>(&mut self, f: impl FnOnce() -> T) -> io::Result<T> {
        restore();
        let out = f();
        enable_raw_mode()?;
        execute!(io::stdout(), EnterAlternateScreen)?;
        if self.mouse_captured {
            execute!(io::stdout(), EnableMouseCapture)?;
        }
        self.terminal.clear()?;
        Ok(out)
    }

    /// Sends an escape sequence (OSC 52) to the terminal.
    pub fn send(&mut self, seq: &str) -> io::Result<()> {
        use std::io::Write;
        let mut out = io::stdout();
        out.write_all(seq.as_bytes())?;
        out.flush()
    }
}

impl Drop for Tui {
    fn drop(&mut self) {
        restore();
    }
}
