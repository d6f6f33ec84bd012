//! What the client reads off the wire besides a plain chat completion: `Retry-After` in
//! either of its forms, the answer of a message however the server shaped it (content
//! parts, tool calls), a streamed reply a server sent although none was asked for, and the
//! key kept out of everything a message quotes.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

/// What the key is replaced with wherever a server echoed it.
pub const MASK: &str = "••••••";

/// `text` with the key (and so its `Bearer …` form) masked: a gateway that echoes the
/// request's headers in an error body must not put the key into a message, a log or the
/// run store.
pub fn mask(text: &str, key: Option<&str>) -> String {
    match key.map(str::trim).filter(|k| !k.is_empty()) {
        Some(key) if text.contains(key) => text.replace(key, MASK),
        _ => text.to_owned(),
    }
}

/// How long `Retry-After` asks to wait: delay-seconds (`120`, some servers send `1.5`) or an
/// HTTP date (`Wed, 21 Oct 2015 07:28:00 GMT`, RFC 7231's IMF-fixdate), counted from `now`.
/// A date already past is no wait.
pub fn retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<f64>() {
        return Duration::try_from_secs_f64(seconds).ok();
    }
    let at = UNIX_EPOCH + Duration::from_secs(imf_fixdate(value)?);
    Some(at.duration_since(now).unwrap_or_default())
}

/// Seconds since 1970 of `Sun, 06 Nov 1994 08:49:37 GMT`.
fn imf_fixdate(date: &str) -> Option<u64> {
    let [_, day, month, year, time, zone] = date.split_whitespace().collect::<Vec<_>>()[..] else { return None };
    if zone != "GMT" {
        return None;
    }
    const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let month = MONTHS.iter().position(|m| *m == month)? as i64 + 1;
    let (day, year): (i64, i64) = (day.parse().ok()?, year.parse().ok()?);
    let [h, m, s] = time.split(':').map(str::parse::<i64>).collect::<Result<Vec<_>, _>>().ok()?[..] else {
        return None;
    };
    if !(1..=31).contains(&day) || !(1970..=9999).contains(&year) || h > 23 || m > 59 || s > 60 {
        return None;
    }
    let seconds = days_from_civil(year, month, day) * 86_400 + h * 3600 + m * 60 + s;
    u64::try_from(seconds).ok()
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The answer a message carries: its content (a string, or parts whose text is joined,
/// leaving out reasoning parts: they draft answers they then reject), else the arguments of
/// its first tool call (servers that turn structured output into a forced tool call).
pub fn answer_of(message: &Value) -> Option<String> {
    match message.get("content") {
        Some(Value::String(s)) if !s.is_empty() || tool_arguments(message).is_none() => return Some(s.clone()),
        Some(Value::Array(parts)) => {
            let said = parts.iter().filter(|p| !is_reasoning(p)).filter_map(|p| p.get("text").and_then(Value::as_str));
            return Some(said.collect::<Vec<_>>().join(""));
        }
        _ => {}
    }
    tool_arguments(message)
}

fn is_reasoning(part: &Value) -> bool {
    let kind = part.get("type").and_then(Value::as_str).unwrap_or_default().to_ascii_lowercase();
    kind.contains("reasoning") || kind.contains("thinking")
}

fn tool_arguments(message: &Value) -> Option<String> {
    match message.pointer("/tool_calls/0/function/arguments")? {
        Value::String(s) => Some(s.clone()),
        Value::Object(o) => Some(Value::Object(o.clone()).to_string()),
        _ => None,
    }
}

/// A token count, written as an integer or (some proxies) a float.
pub fn tokens(usage: Option<&Value>) -> u64 {
    usage.and_then(|n| n.as_u64().or_else(|| n.as_f64().filter(|f| *f >= 0.0).map(|f| f.round() as u64))).unwrap_or(0)
}

/// A server-sent-events stream (`data: {chunk}` lines, `data: [DONE]`), as a server that
/// streams whatever was asked sends it, made one chat completion: the deltas' content
/// joined, the last usage given. `None` when it is not such a stream.
pub fn from_event_stream(text: &str) -> Option<Value> {
    let mut content = String::new();
    let mut usage = Value::Null;
    let mut chunks = 0;
    for line in text.lines() {
        let Some(data) = line.strip_prefix("data:").map(str::trim) else { continue };
        if data == "[DONE]" {
            break;
        }
        let chunk: Value = serde_json::from_str(data).ok()?;
        chunks += 1;
        if let Some(error) = chunk.get("error") {
            return Some(json!({ "error": error }));
        }
        if let Some(piece) = chunk.pointer("/choices/0/delta/content").and_then(Value::as_str) {
            content.push_str(piece);
        }
        if chunk.get("usage").is_some_and(|u| !u.is_null()) {
            usage = chunk["usage"].clone();
        }
    }
    (chunks > 0).then(|| json!({ "choices": [{ "message": { "content": content } }], "usage": usage }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_in_seconds_or_as_a_date() {
        let now = UNIX_EPOCH + Duration::from_secs(1_445_412_470); // Wed, 21 Oct 2015 07:27:50 GMT
        assert_eq!(retry_after("7", now), Some(Duration::from_secs(7)));
        assert_eq!(retry_after(" 1.5 ", now), Some(Duration::from_millis(1500)));
        assert_eq!(retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now), Some(Duration::from_secs(10)));
        assert_eq!(retry_after("Wed, 21 Oct 2015 07:00:00 GMT", now), Some(Duration::ZERO), "past");
        assert_eq!(imf_fixdate("Sun, 06 Nov 1994 08:49:37 GMT"), Some(784_111_777));
        assert_eq!(imf_fixdate("Thu, 29 Feb 2024 00:00:00 GMT"), Some(1_709_164_800));
        for junk in ["-1", "soon", "Wed, 21 Oct 2015 07:28:00 PST", "Wed, 21 Foo 2015 07:28:00 GMT", ""] {
            assert_eq!(retry_after(junk, now), None, "{junk}");
        }
    }

    #[test]
    fn the_key_is_masked_in_its_bearer_form_too() {
        let said = mask("bad header: Authorization: Bearer sk-live-1234; key sk-live-1234", Some("sk-live-1234"));
        assert_eq!(said, format!("bad header: Authorization: Bearer {MASK}; key {MASK}"));
        assert_eq!(mask("no key here", None), "no key here");
    }
}
