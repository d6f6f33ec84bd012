//! DevTools endpoint URLs: the address to connect to, and the URL as it may be shown.
//!
//! Hosted browsers hand out URLs with a credential in them (Browserless `?token=…`, a cloud
//! service's `?apiKey=…`, `user:password@`): whatever is printed or stored shows the URL
//! with those parts masked.

use crate::ChromeError;

/// `host:port` of a DevTools URL (`http://127.0.0.1:9222`, `ws://host:9222/devtools/browser/…`,
/// `ws://[::1]:9222`); a malformed URL (an unclosed `[`, a port that is not a number…) is
/// [`ChromeError::InvalidUrl`], saying what is wrong with it.
pub fn endpoint_address(url: &str) -> Result<String, ChromeError> {
    let invalid = |reason: &str| ChromeError::InvalidUrl { url: mask_url(url), reason: reason.to_owned() };
    let (scheme, rest) =
        url.split_once("://").ok_or_else(|| invalid("expected http://HOST:PORT or ws://HOST:PORT/…"))?;
    let default_port = match scheme.to_ascii_lowercase().as_str() {
        "http" | "ws" => 80,
        "https" | "wss" => 443,
        _ => return Err(invalid("the scheme must be http, https, ws or wss")),
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let authority = authority.rsplit_once('@').map_or(authority, |(_, host)| host);
    let (host, port) = host_and_port(authority).map_err(|reason| invalid(&reason))?;
    if host.is_empty() {
        return Err(invalid("it names no host"));
    }
    match port {
        Some(port) => {
            port.parse::<u16>().map_err(|_| invalid(&format!("`{port}` is not a port number")))?;
            Ok(format!("{host}:{port}"))
        }
        None => Ok(format!("{host}:{default_port}")),
    }
}

/// An authority's host (`[::1]` bracketed, as it is connected to) and port, if it gives one;
/// `Err` says what is malformed.
fn host_and_port(authority: &str) -> Result<(&str, Option<&str>), String> {
    let (host, port) = if authority.starts_with('[') {
        let not_ipv6 = || format!("`{authority}` is not a bracketed IPv6 address, as in [::1]:9222");
        let end = authority.find(']').ok_or_else(not_ipv6)?;
        let (host, after) = authority.split_at(end + 1);
        host[1..end].parse::<std::net::Ipv6Addr>().map_err(|_| not_ipv6())?;
        match after {
            "" => (host, None),
            _ => (host, Some(after.strip_prefix(':').ok_or_else(not_ipv6)?)),
        }
    } else {
        let (host, port) = match authority.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        };
        if !host.chars().all(|c| c.is_alphanumeric() || matches!(c, '.' | '-' | '_')) {
            return Err(format!("`{host}` is not a host name"));
        }
        (host, port)
    };
    Ok((host, port))
}

/// `url` with its credentials masked: each query value and the userinfo's password (or a
/// bare userinfo, which is a token) become `***`. The scheme, host, port and path stay, so
/// the endpoint can still be told apart from the others.
pub fn mask_url(url: &str) -> String {
    const MASK: &str = "***";
    let (scheme, rest) = match url.split_once("://") {
        Some((scheme, rest)) => (Some(scheme), rest),
        None => (None, url),
    };
    let (before_query, query) = match rest.split_once('?') {
        Some((before, query)) => (before, Some(query)),
        None => (rest, None),
    };
    // The userinfo ends at the last `@` before the path.
    let authority_end = before_query.find('/').unwrap_or(before_query.len());
    let (authority, path) = before_query.split_at(authority_end);
    let authority = match authority.rsplit_once('@') {
        Some((userinfo, host)) => match userinfo.split_once(':') {
            Some((user, _password)) => format!("{user}:{MASK}@{host}"),
            None => format!("{MASK}@{host}"),
        },
        None => authority.to_owned(),
    };
    let mut masked = scheme.map(|s| format!("{s}://")).unwrap_or_default();
    masked.push_str(&authority);
    masked.push_str(path);
    if let Some(query) = query {
        let (query, fragment) = query.split_once('#').map_or((query, None), |(q, f)| (q, Some(f)));
        let pairs: Vec<String> = query
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((name, _)) => format!("{name}={MASK}"),
                None if pair.is_empty() => String::new(),
                None => MASK.to_owned(),
            })
            .collect();
        masked.push('?');
        masked.push_str(&pairs.join("&"));
        if let Some(fragment) = fragment {
            masked.push('#');
            masked.push_str(fragment);
        }
    }
    masked
}

/// The host of `address` (`host:port`, as [`endpoint_address`] gives it; an IPv6 host
/// bracketed), for a certificate to be checked against and a message to name.
pub(crate) fn host_of(address: &str) -> &str {
    address.rsplit_once(':').map_or(address, |(host, _)| host)
}

/// `text` (an error from the connection, which may quote the URL it was given) with every
/// occurrence of `url`, or of its query, masked as [`mask_url`] does.
pub(crate) fn masked_in(text: &str, url: &str) -> String {
    let mut text = text.replace(url, &mask_url(url));
    if let Some((_, query)) = url.split_once('?').filter(|(_, q)| !q.is_empty()) {
        let masked = mask_url(&format!("?{query}"));
        text = text.replace(query, masked.trim_start_matches('?'));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endpoint_addresses_come_from_devtools_urls_and_bad_ones_are_input_errors() {
        assert_eq!(endpoint_address("http://127.0.0.1:9222").unwrap(), "127.0.0.1:9222");
        assert_eq!(endpoint_address("ws://grid:4444/devtools/browser/abc").unwrap(), "grid:4444");
        assert_eq!(endpoint_address("wss://user:pw@cloud.example/session?x=1").unwrap(), "cloud.example:443");
        assert_eq!(endpoint_address("http://[::1]:9222/").unwrap(), "[::1]:9222");
        assert_eq!(endpoint_address("ws://[::1]/devtools").unwrap(), "[::1]:80");
        assert_eq!(endpoint_address("https://cloud.example:9443/x").unwrap(), "cloud.example:9443");
        for (bad, why) in [
            ("127.0.0.1:9222", "expected http://HOST:PORT"),
            ("ftp://host:1", "the scheme must be"),
            ("http://", "no host"),
            ("http://host:notaport", "`notaport` is not a port number"),
            ("http://host:99999", "`99999` is not a port number"),
            ("http://:9222", "no host"),
            ("ws://[::1", "`[::1` is not a bracketed IPv6 address"),
            ("ws://[::1]x:9222/", "IPv6"),
            ("ws://[nothex]:9222", "IPv6"),
            ("ws://ho st:9222", "not a host name"),
            ("ws://a]b:9222", "not a host name"),
            ("ws://host:9222:1/", "not a port number"),
        ] {
            let e = endpoint_address(bad).unwrap_err();
            assert!(e.is_invalid_input(), "{bad}: {e}");
            assert!(e.to_string().contains(why), "{bad}: {e}");
        }
    }

    #[test]
    fn credentials_are_masked_and_the_rest_of_the_url_stays() {
        for (url, shown) in [
            ("ws://127.0.0.1:9222/devtools/browser/ab-12", "ws://127.0.0.1:9222/devtools/browser/ab-12"),
            ("wss://chrome.browserless.io?token=s3cret", "wss://chrome.browserless.io?token=***"),
            ("ws://grid:4444/session/42/se/cdp?a=1&b=two&flag", "ws://grid:4444/session/42/se/cdp?a=***&b=***&***"),
            ("wss://user:hunter2@cloud.example/cdp", "wss://user:***@cloud.example/cdp"),
            ("wss://tok3n@cloud.example", "wss://***@cloud.example"),
            ("http://127.0.0.1:9222", "http://127.0.0.1:9222"),
        ] {
            assert_eq!(mask_url(url), shown, "{url}");
        }
        let error = endpoint_address("ftp://host?token=s3cret").unwrap_err().to_string();
        assert!(!error.contains("s3cret") && error.contains("token=***"), "{error}");
    }

    #[test]
    fn a_quoted_url_or_query_is_masked_in_error_text() {
        let url = "ws://h:1/x?token=s3cret&n=2";
        let text = format!("cannot reach {url}; GET /json/version?token=s3cret&n=2 failed");
        let masked = masked_in(&text, url);
        assert!(!masked.contains("s3cret"), "{masked}");
        assert!(masked.contains("ws://h:1/x?token=***&n=***"), "{masked}");
    }
}
