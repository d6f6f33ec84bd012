//! Reading a JSON object out of whatever a model answered: the whole reply, a fenced block,
//! the first brace-balanced object, or (seed 004) `key: value` lines at the start of lines.
//! A reasoning model's `<think>` block (DeepSeek-R1, Qwen3 and the like, as Ollama and
//! llama.cpp pass it on) is not the answer: it often drafts objects it then rejects.
//! Truncated or garbage replies are an error, never a panic.

use serde_json::{Map, Value};

/// The first JSON object in `reply` that has the key `required`, if any.
pub fn extract_object(reply: &str, required: &str) -> Result<Map<String, Value>, String> {
    let reply = after_reasoning(reply)?;
    let has = |v: &Value| v.as_object().filter(|o| o.contains_key(required)).cloned();
    if let Ok(v) = serde_json::from_str::<Value>(reply.trim())
        && let Some(o) = has(&v)
    {
        return Ok(o);
    }
    for block in fenced_blocks(reply) {
        if let Ok(v) = serde_json::from_str::<Value>(block.trim())
            && let Some(o) = has(&v)
        {
            return Ok(o);
        }
    }
    for candidate in balanced_objects(reply) {
        if let Ok(v) = serde_json::from_str::<Value>(candidate)
            && let Some(o) = has(&v)
        {
            return Ok(o);
        }
    }
    if let Some(o) = line_anchored(reply, required) {
        return Ok(o);
    }
    let shown: String = reply.chars().take(120).collect();
    Err(if reply.trim().is_empty() {
        "the model answered nothing".to_owned()
    } else if reply.contains('{') && !reply.contains('}') {
        format!("the model's answer is cut off (truncated JSON): {shown:?}")
    } else {
        format!("no JSON object with `{required}` in the model's answer: {shown:?}")
    })
}

/// How reasoning models mark their reasoning off from the answer, as servers pass it on:
/// (where it opens, where the answer begins). Matched ignoring ASCII case.
const REASONING: &[(&str, &str)] = &[
    ("<think>", "</think>"),           // DeepSeek-R1, Qwen3, and most
    ("<thinking>", "</thinking>"),     // Claude-style prompts
    ("<seed:think>", "</seed:think>"), // ByteDance Seed-OSS
    ("<reasoning>", "</reasoning>"),
    ("◁think▷", "◁/think▷"), // Kimi
    ("[think]", "[/think]"), // Magistral
    ("<|begin_of_thought|>", "<|end_of_thought|>"),
    // gpt-oss (harmony): the analysis channel, then the final one.
    ("<|channel|>analysis", "<|channel|>final<|message|>"),
    ("<|start|>assistant<|channel|>analysis", "<|channel|>final<|message|>"),
];

/// What follows the model's reasoning, if it wrote any in one of the [`REASONING`] forms.
fn after_reasoning(reply: &str) -> Result<&str, String> {
    // ASCII lowercasing keeps every byte where it was, so positions carry over.
    let lower = reply.to_ascii_lowercase();
    for (open, close) in REASONING {
        if let Some(end) = lower.rfind(close) {
            let answer = &reply[end + close.len()..];
            // Harmony ends the final message with a marker of its own.
            return Ok(answer.trim_end().trim_end_matches("<|return|>").trim_end_matches("<|end|>"));
        }
        if lower.trim_start().starts_with(open) {
            return Err(format!(
                "the model's answer is cut off in its reasoning ({open} without {close}): raise its token limit"
            ));
        }
    }
    Ok(reply)
}

/// The contents of ``` fenced blocks, in order.
fn fenced_blocks(text: &str) -> Vec<&str> {
    let mut blocks = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("```") {
        let after = &rest[start + 3..];
        // Skip the info string (`json`) up to the end of its line.
        let body_start = after.find('\n').map_or(after.len(), |i| i + 1);
        let body = &after[body_start..];
        let Some(end) = body.find("```") else { break };
        blocks.push(&body[..end]);
        rest = &body[end + 3..];
    }
    blocks
}

/// Every top-level `{…}` span whose braces balance, skipping braces inside strings.
fn balanced_objects(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'{' {
            i += 1;
            continue;
        }
        let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
        let mut end = None;
        for (j, &b) in bytes.iter().enumerate().skip(i) {
            if in_string {
                match (escaped, b) {
                    (true, _) => escaped = false,
                    (false, b'\\') => escaped = true,
                    (false, b'"') => in_string = false,
                    _ => {}
                }
                continue;
            }
            match b {
                b'"' => in_string = true,
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(j);
                        break;
                    }
                }
                _ => {}
            }
        }
        match end {
            Some(j) => {
                found.push(&text[i..=j]);
                i = j + 1;
            }
            None => break,
        }
    }
    found
}

/// `kind: click` / `element: 12` lines, each at the start of a line (so keywords echoed
/// inside the prompt or the page do not match), into an object; only when `required` is
/// among them.
fn line_anchored(text: &str, required: &str) -> Option<Map<String, Value>> {
    let mut object = Map::new();
    for line in text.lines() {
        let Some((key, value)) = line.split_once(':') else { continue };
        let key = key.trim().trim_matches('*').trim().to_ascii_lowercase();
        if key.is_empty()
            || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            || !line.starts_with(|c: char| c.is_ascii_alphabetic() || c == '*')
        {
            continue;
        }
        let value = value.trim().trim_matches('`').trim_matches('"');
        let value = match value.parse::<i64>() {
            Ok(n) => Value::from(n),
            Err(_) => Value::from(value),
        };
        object.entry(key).or_insert(value);
    }
    object.contains_key(required).then_some(object)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(reply: &str) -> Result<String, String> {
        extract_object(reply, "kind").map(|o| o["kind"].as_str().unwrap_or_default().to_owned())
    }

    #[test]
    fn plain_fenced_prose_and_lines() {
        assert_eq!(kind(r#"{"kind": "click", "element": 3}"#).unwrap(), "click");
        assert_eq!(kind("Sure!\n```json\n{\"kind\": \"retry\"}\n```\nHope it helps").unwrap(), "retry");
        assert_eq!(kind(r#"I think {"kind": "type", "text": "a } in a string {"} is best."#).unwrap(), "type");
        assert_eq!(kind("Looking at the page.\nkind: skip\nreason: the banner is gone").unwrap(), "skip");
        // Objects without the key are passed over.
        assert_eq!(kind(r#"{"thought": "x"} then {"kind": "abort"}"#).unwrap(), "abort");
    }

    #[test]
    fn reasoning_is_not_the_answer() {
        let reply = "<think>\nMaybe {\"kind\": \"click\", \"element\": 4}? No, the field is empty.\n</think>\n\
                     {\"kind\": \"type\", \"element\": 2, \"text\": \"kettle\"}";
        assert_eq!(kind(reply).unwrap(), "type");
        let reply = "<thinking>kind: abort</thinking>\n```json\n{\"kind\": \"retry\"}\n```";
        assert_eq!(kind(reply).unwrap(), "retry");
        // A reasoning block that never closed holds no answer, whatever it drafted.
        let cut = kind("<think>\nThe answer is {\"kind\": \"click\", \"element\": 4} unless");
        assert!(cut.unwrap_err().contains("cut off in its reasoning"));
        // Nothing after the reasoning is no answer either.
        assert!(kind("<think>{\"kind\": \"skip\"}</think>").unwrap_err().contains("nothing"));
        // Other models' ways of marking it, in any case.
        for reply in [
            "◁think▷kind: abort◁/think▷{\"kind\": \"retry\"}",
            "[THINK]{\"kind\": \"abort\"}[/THINK]\n{\"kind\": \"retry\"}",
            "<seed:think>{\"kind\": \"abort\"}</seed:think>{\"kind\": \"retry\"}",
            "<reasoning>{\"kind\": \"abort\"}</reasoning>{\"kind\": \"retry\"}",
            "<|begin_of_thought|>{\"kind\": \"abort\"}<|end_of_thought|><|begin_of_solution|>{\"kind\": \"retry\"}<|end_of_solution|>",
            "<THINK>{\"kind\": \"abort\"}</THINK>{\"kind\": \"retry\"}",
            "<Thinking>{\"kind\": \"abort\"}</Thinking>{\"kind\": \"retry\"}",
            "<|channel|>analysis<|message|>{\"kind\": \"abort\"}<|end|><|start|>assistant<|channel|>final<|message|>{\"kind\": \"retry\"}<|return|>",
        ] {
            assert_eq!(kind(reply).as_deref(), Ok("retry"), "{reply}");
        }
        for cut in [
            "◁think▷ {\"kind\": \"abort\"}",
            "[THINK]{\"kind\": \"abort\"}",
            "<|channel|>analysis<|message|>{\"kind\": \"abort\"}",
        ] {
            assert!(kind(cut).unwrap_err().contains("cut off in its reasoning"), "{cut}");
        }
        // The tag mentioned in an answer is not reasoning.
        assert_eq!(kind("{\"kind\": \"type\", \"text\": \"<think>\"}").unwrap(), "type");
    }

    #[test]
    fn truncated_and_garbage_are_errors() {
        assert!(kind(r#"{"kind": "click", "element": "#).unwrap_err().contains("cut off"));
        assert!(kind("").unwrap_err().contains("nothing"));
        assert!(kind("no idea, sorry").unwrap_err().contains("no JSON object"));
        // Echoed words mid-line are not actions.
        assert!(kind("the page says kind: click here").is_err());
        for junk in ["{{{{", "}}}}", "{\"a\":", "```", "```json\n{", "\u{0}{\u{0}}", "kind:"] {
            let _ = kind(junk);
        }
    }
}
