//! Pressing where the target is once the pointer is on it. A page may answer the pointer's
//! arrival by changing what is under it: a `:hover` rule that swaps an icon's image (the
//! icon has no size while the new one loads), a button that grows, a row a script redraws.
//! A person's finger follows what their eye sees; a press sent in the same instant as the
//! move lands on whatever took the icon's place (the post around a *Like* icon).

use std::time::Duration;

use serde_json::Value;
use statewright_engine::{DriverError, DriverResult};
use statewright_workflow::{MouseButton, Target};

use super::{Actionable, ChromeDriver};
use crate::input;

/// How long the target may take to show again under the pointer (a hover image loading).
const SETTLE: Duration = Duration::from_secs(1);

/// Arrivals after which the press goes where the target was last found, even if each one
/// moves it (a page that makes it flee the pointer).
const ARRIVALS: usize = 3;

impl ChromeDriver {
    /// Moves the pointer onto `at`, where `target` was found under `opts`, and returns where
    /// to press: there, unless the pointer's arrival moved or hid the target; then where it
    /// shows once it has settled under the pointer. One that does not show again within
    /// `SETTLE` is pressed at `at`, as without this look. Also whether the pointer is there
    /// already (a press then needs no move of its own, which would cost the page a frame).
    pub(super) async fn pointed_at(
        &mut self,
        target: &Target,
        opts: &Value,
        at: Actionable,
    ) -> DriverResult<(Actionable, bool)> {
        let mut at = at;
        for _ in 0..ARRIVALS {
            input::move_to(self.raw(), at.x, at.y).await.map_err(DriverError::Browser)?;
            let Ok((again, _)) = self.actionable(target, opts.clone(), SETTLE).await else {
                return Ok((at, true));
            };
            let stayed = (again.x - at.x).abs() < 0.5 && (again.y - at.y).abs() < 0.5;
            at = again;
            if stayed {
                return Ok((at, true));
            }
        }
        Ok((at, false))
    }

    /// Clicks `count` times where [`Self::pointed_at`] says, moving there first unless the
    /// pointer is there.
    pub(super) async fn press(
        &self,
        (at, there): (&Actionable, bool),
        button: MouseButton,
        count: u32,
    ) -> DriverResult<()> {
        let pressed = match there {
            true => input::click_here(self.raw(), at.x, at.y, button, count).await,
            false => input::click(self.raw(), at.x, at.y, button, count).await,
        };
        pressed.map_err(DriverError::Browser)
    }
}
