//! Parameters named after the fields they fill: a secret typed into a password field, a
//! file chosen for a file field. A name is a short identifier from the field's label, so a
//! draft reads `{{resume}}`, not `{{file_3}}`.

use crate::trajectory::{Act, Page};

/// A secret parameter's name from its field: `password`, `pin`, else `password`.
pub(crate) fn secret_name(page: &Page, act: &Act) -> String {
    field_name(page, act).unwrap_or_else(|| "password".into())
}

/// A parameter's name from the field acted on (its name, else its placeholder), when that
/// makes a short one.
pub(crate) fn field_name(page: &Page, act: &Act) -> Option<String> {
    let label = page.element_of(act).map(|e| if e.name.is_empty() { e.placeholder.clone() } else { e.name.clone() });
    let name: String = label?
        .to_lowercase()
        .chars()
        .map(unaccented)
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect::<String>()
        .split('_')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("_");
    // A parameter's name starts with a letter: "2. Your CV" names `your_cv`.
    let name = name.trim_start_matches(|c: char| c.is_ascii_digit() || c == '_');
    (!name.is_empty() && name.len() <= 30).then(|| name.to_owned())
}

/// A Latin letter without its accent (`é` → `e`), so that a label such as "Résumé" names a
/// parameter `resume`; other characters as they are.
fn unaccented(c: char) -> char {
    const FROM: &str = "àáâãäåçèéêëìíîïñòóôõöùúûüýÿ";
    const TO: &str = "aaaaaaceeeeiiiinooooouuuuyy";
    FROM.chars().position(|f| f == c).and_then(|i| TO.chars().nth(i)).unwrap_or(c)
}
