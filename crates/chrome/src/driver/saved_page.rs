//! `save_html`'s file: the page's markup as UTF-8, which is how the library hands it over
//! whatever the page was written in.

/// What the file starts its head with, so that a browser opening it reads it as the UTF-8
/// it is. A page written in another encoding (Shift_JIS, Windows-1252) keeps its own
/// `<meta charset>`, and read by that the file showed mojibake; the first declaration in a
/// document is the one that counts, so this one goes before any the page has.
const DECLARATION: &str = r#"<meta charset="utf-8">"#;

/// The bytes of the file `save_html` writes for `html`, the document's root element as the
/// page serialises it (`<html …><head>…`).
pub(super) fn saved_page(html: &str) -> Vec<u8> {
    let lower = html.to_ascii_lowercase();
    let head_start = lower.find("<head").filter(|&at| matches!(lower.as_bytes().get(at + 5), Some(b'>' | b' ')));
    let after_head = head_start.and_then(|at| lower[at..].find('>').map(|end| at + end + 1));
    let at = match after_head {
        Some(at) if lower[at..].starts_with(DECLARATION) => return html.as_bytes().to_vec(),
        Some(at) => at,
        // No head (a document a script built bare): before it all, where the parser still
        // takes it for the head's.
        None => 0,
    };
    let mut saved = String::with_capacity(html.len() + DECLARATION.len());
    saved.push_str(&html[..at]);
    saved.push_str(DECLARATION);
    saved.push_str(&html[at..]);
    saved.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::saved_page;

    fn saved(html: &str) -> String {
        String::from_utf8(saved_page(html)).expect("UTF-8")
    }

    #[test]
    fn the_saved_page_declares_utf8_first_in_its_head() {
        assert_eq!(
            saved(r#"<html lang="ja"><head><meta charset="Shift_JIS"><title>東京</title></head><body></body></html>"#),
            r#"<html lang="ja"><head><meta charset="utf-8"><meta charset="Shift_JIS"><title>東京</title></head><body></body></html>"#
        );
        assert_eq!(
            saved("<html><head></head><body>Café</body></html>"),
            r#"<html><head><meta charset="utf-8"></head><body>Café</body></html>"#
        );
        assert_eq!(
            saved("<html><header>x</header></html>"),
            r#"<meta charset="utf-8"><html><header>x</header></html>"#
        );
    }

    #[test]
    fn a_page_that_declares_utf8_first_is_saved_as_it_is() {
        let page = r#"<html><head><meta charset="utf-8"><title>Shop</title></head><body></body></html>"#;
        assert_eq!(saved(page), page);
    }
}
