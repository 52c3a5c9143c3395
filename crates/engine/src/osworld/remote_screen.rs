//! A remote guest's screen as a rollout [`Screen`](crate::rollout::screen::Screen):
//! observations are `GET /screenshot`, actions are pyautogui code through `POST /execute` (what
//! OSWorld's own harness sends), `wait` sleeps here. Transport failures and timeouts are
//! infrastructure ([`RolloutError::Infra`]); an action pyautogui refused is the policy's
//! ([`RolloutError::Policy`], with the guest's error text).

use std::time::Duration;

use serde_json::json;

use super::client::GuestClient;
use super::pyautogui::{code, PREFIX};
use super::OsworldError;
use crate::act::screen::{ComputerAction, Observation, Screen};
use crate::act::RolloutError;

/// A guest's screen, driven over OSWorld's protocol.
pub struct RemoteScreen {
    client: GuestClient,
    /// Deadline of one action's `/execute`.
    pub action_timeout: Duration,
}

impl RemoteScreen {
    /// The screen of the guest `client` talks to.
    pub fn new(client: GuestClient) -> Self {
        RemoteScreen {
            client,
            action_timeout: Duration::from_secs(90),
        }
    }
}

fn rollout(e: OsworldError) -> RolloutError {
    match e {
        OsworldError::Infra(m) => RolloutError::Infra(m),
        other => RolloutError::Policy(other.to_string()),
    }
}

/// Width and height from a PNG's IHDR chunk.
pub fn png_size(png: &[u8]) -> Option<(u32, u32)> {
    if png.len() < 24 || !png.starts_with(b"\x89PNG\r\n\x1a\n") || &png[12..16] != b"IHDR" {
        return None;
    }
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    Some((be(&png[16..20]), be(&png[20..24])))
}

impl Screen for RemoteScreen {
    fn observe(&self) -> Result<Observation, RolloutError> {
        let png = self.client.screenshot().map_err(rollout)?;
        let (width, height) = match png_size(&png) {
            Some(s) => s,
            None => self.client.screen_size().map_err(rollout)?,
        };
        Ok(Observation::Screenshot { png, width, height })
    }

    fn size(&self) -> Result<(u32, u32), RolloutError> {
        self.client.screen_size().map_err(rollout)
    }

    fn perform(&self, action: &ComputerAction) -> Result<(), RolloutError> {
        if let ComputerAction::Wait { seconds } = action {
            std::thread::sleep(Duration::from_secs_f64(seconds.clamp(0.0, 60.0)));
            return Ok(());
        }
        if let ComputerAction::CallUser { .. } = action {
            return Err(RolloutError::Policy(
                "call_user is not allowed during rollouts".into(),
            ));
        }
        let Some(code) = code(action) else {
            return Ok(());
        };
        let command = json!(["python", "-c", format!("{PREFIX}{code}")]);
        let r = self
            .client
            .execute(&command, false, false, self.action_timeout)
            .map_err(rollout)?;
        if r.returncode != 0 {
            let last = r.error.lines().last().unwrap_or("").to_string();
            return Err(RolloutError::Policy(format!(
                "the action failed on the guest (exit {}): {last}",
                r.returncode
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::png_size;

    #[test]
    fn png_size_reads_the_header_and_refuses_other_bytes() {
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        png.extend_from_slice(&1280u32.to_be_bytes());
        png.extend_from_slice(&800u32.to_be_bytes());
        assert_eq!(png_size(&png), Some((1280, 800)));
        assert_eq!(png_size(b"\xff\xd8\xff not a png at all.."), None);
    }
}
