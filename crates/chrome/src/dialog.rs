//! JavaScript dialogs (`alert`, `confirm`, `prompt`, leave-page). While one is open the
//! page runs no script, so every call into it would wait until the run failed with "the
//! page did not answer" (seen: an `alert` on load cost the navigation and then the run).
//! Each is answered the moment it opens, as the person the workflow stands for would
//! answer it: OK, the prompt's own default text, and leave the page when asked.

use chromiumoxide::cdp::browser_protocol::page::{
    DialogType, EventJavascriptDialogOpening, HandleJavaScriptDialogParams,
};
use chromiumoxide::page::Page;
use futures::StreamExt;
use tokio::task::JoinHandle;

use crate::address::mask_url;

/// Answers every dialog `page` opens, for as long as the returned task runs.
pub(crate) async fn answer_dialogs(page: &Page) -> Result<JoinHandle<()>, String> {
    let mut opened = page.event_listener::<EventJavascriptDialogOpening>().await.map_err(|e| e.to_string())?;
    let page = page.clone();
    Ok(tokio::spawn(async move {
        while let Some(dialog) = opened.next().await {
            let answer = answer(&dialog.r#type, dialog.default_prompt.as_deref());
            // The message is page content and may echo what was typed: it is not logged.
            tracing::warn!(
                "the page at {} opened a JavaScript {} dialog; answered OK",
                mask_url(&dialog.url),
                dialog.r#type.as_ref()
            );
            if let Err(e) = page.execute(answer).await {
                tracing::warn!("cannot answer the page's dialog: {e}");
            }
        }
    }))
}

/// How a dialog is answered: always accepted; a prompt gets its default text.
fn answer(kind: &DialogType, default_prompt: Option<&str>) -> HandleJavaScriptDialogParams {
    let mut params = HandleJavaScriptDialogParams::new(true);
    if *kind == DialogType::Prompt {
        params.prompt_text = Some(default_prompt.unwrap_or_default().to_owned());
    }
    params
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_is_accepted_and_a_prompt_gets_its_default() {
        for kind in [DialogType::Alert, DialogType::Confirm, DialogType::Beforeunload] {
            let params = answer(&kind, Some("ignored"));
            assert!(params.accept, "{kind:?}");
            assert_eq!(params.prompt_text, None, "{kind:?}");
        }
        let prompt = answer(&DialogType::Prompt, Some("Ada"));
        assert!(prompt.accept);
        assert_eq!(prompt.prompt_text.as_deref(), Some("Ada"));
        assert_eq!(answer(&DialogType::Prompt, None).prompt_text.as_deref(), Some(""));
    }
}
