//! Number literals: decimal, `0x`/`0o`/`0b`, `_` separators, floats and unary signs.

use super::{CallError, Literal, Parser, err, is_ident_char};

/// A number before it is narrowed to a [`Literal`]: integers are kept wider than `i64` so
/// that `-9223372036854775808` can be negated before its range is checked.
#[derive(Debug, Clone, Copy)]
pub(super) enum Num {
    Int(i128),
    Float(f64),
}

impl Parser {
    /// Parses `-x` / `+x` where `x` is a number literal or another signed number.
    pub(super) fn signed(&mut self) -> Result<Num, CallError> {
        let sign_pos = self.pos;
        let negative = self.peek() == Some('-');
        let sign = if negative { '-' } else { '+' };
        self.enter(sign_pos)?;
        self.pos += 1;
        self.skip_ws();
        let n = match self.peek() {
            Some('-' | '+') => self.signed()?,
            Some('0'..='9') => self.number()?,
            Some('.') if self.peek_at(1).is_some_and(|d| d.is_ascii_digit()) => self.number()?,
            _ => {
                // Parse the operand anyway: if it is not a literal, its own error says so.
                let operand = self.value()?;
                let message = match operand {
                    Literal::Int(_) | Literal::Float(_) => {
                        format!("unary `{sign}` must be followed directly by a number, as in {sign}5")
                    }
                    other => format!("unary `{sign}` applies only to numbers; found {}", other.type_name()),
                };
                return Err(err(sign_pos, message));
            }
        };
        self.leave();
        Ok(match (negative, n) {
            (false, n) => n,
            // Cannot overflow: `number` keeps integers within ±i128::MAX.
            (true, Num::Int(i)) => Num::Int(-i),
            (true, Num::Float(f)) => Num::Float(-f),
        })
    }

    /// Reads decimal digits with single `_` separators between them, as Python allows.
    /// Returns the digits without separators (possibly empty if no digit is here).
    fn digit_part(&mut self) -> Result<String, CallError> {
        let mut digits = String::new();
        while let Some(c) = self.peek() {
            if c.is_ascii_digit() {
                digits.push(c);
                self.pos += 1;
            } else if c == '_' && !digits.is_empty() && self.peek_at(1).is_some_and(|d| d.is_ascii_digit()) {
                self.pos += 1;
            } else if c == '_' && !digits.is_empty() {
                return Err(err(self.pos, "`_` in a number must stand between two digits"));
            } else {
                break;
            }
        }
        Ok(digits)
    }

    /// Parses an unsigned number literal starting at a digit or at `.digit`.
    pub(super) fn number(&mut self) -> Result<Num, CallError> {
        let start = self.pos;
        if self.peek() == Some('0') {
            let radix = match self.peek_at(1) {
                Some('x' | 'X') => Some((16, "hexadecimal")),
                Some('o' | 'O') => Some((8, "octal")),
                Some('b' | 'B') => Some((2, "binary")),
                _ => None,
            };
            if let Some((radix, radix_name)) = radix {
                self.pos += 2;
                let mut value: i128 = 0;
                let mut any = false;
                while let Some(c) = self.peek() {
                    if let Some(d) = c.to_digit(radix) {
                        value = value
                            .checked_mul(i128::from(radix))
                            .and_then(|v| v.checked_add(i128::from(d)))
                            .ok_or_else(|| err(start, "integer literal is too large"))?;
                        any = true;
                        self.pos += 1;
                    } else if c == '_' && self.peek_at(1).is_some_and(|d| d.is_digit(radix)) {
                        self.pos += 1;
                    } else {
                        break;
                    }
                }
                if !any {
                    return Err(err(
                        start,
                        format!("expected {radix_name} digits after `0{}`", self.text(start + 1, 1)),
                    ));
                }
                self.number_end(start)?;
                return Ok(Num::Int(value));
            }
        }

        let int_part = self.digit_part()?;
        let mut is_float = false;
        let mut frac = String::new();
        if self.peek() == Some('.') {
            is_float = true;
            self.pos += 1;
            if self.peek() == Some('_') {
                return Err(err(self.pos, "`_` in a number must stand between two digits"));
            }
            frac = self.digit_part()?;
        }
        let mut exponent = String::new();
        if matches!(self.peek(), Some('e' | 'E')) {
            let sign_len = usize::from(matches!(self.peek_at(1), Some('+' | '-')));
            if self.peek_at(1 + sign_len).is_some_and(|d| d.is_ascii_digit()) {
                is_float = true;
                if self.peek_at(1) == Some('-') {
                    exponent.push('-');
                }
                self.pos += 1 + sign_len;
                exponent.push_str(&self.digit_part()?);
            }
        }
        if matches!(self.peek(), Some('j' | 'J')) {
            return Err(err(start, "complex numbers are not supported"));
        }
        self.number_end(start)?;

        if is_float {
            let int_part = if int_part.is_empty() { "0" } else { &int_part };
            let frac = if frac.is_empty() { "0" } else { &frac };
            let exponent = if exponent.is_empty() { "0" } else { &exponent };
            let text = format!("{int_part}.{frac}e{exponent}");
            let f: f64 = text.parse().map_err(|_| err(start, "invalid float literal"))?;
            if !f.is_finite() {
                return Err(err(start, "float literal is out of range"));
            }
            return Ok(Num::Float(f));
        }
        if int_part.len() > 1 && int_part.starts_with('0') && int_part.chars().any(|c| c != '0') {
            return Err(err(start, "leading zeros in decimal integer literals are not allowed; use 0o for octal"));
        }
        let mut value: i128 = 0;
        for c in int_part.chars() {
            let d = c.to_digit(10).map_or(0, i128::from);
            value = value
                .checked_mul(10)
                .and_then(|v| v.checked_add(d))
                .ok_or_else(|| err(start, "integer literal is too large"))?;
        }
        Ok(Num::Int(value))
    }

    /// A number must not run straight into a name (`5px`, `0x1g`, `1e`), as in Python.
    fn number_end(&self, start: usize) -> Result<(), CallError> {
        if self.peek().is_some_and(is_ident_char) {
            let mut end = self.pos;
            while self.at(end).is_some_and(is_ident_char) {
                end += 1;
            }
            return Err(err(start, format!("invalid number literal `{}`", self.text(start, end - start))));
        }
        Ok(())
    }
}

/// Narrows a parsed number to a [`Literal`]: integers must fit in 64 bits.
pub(super) fn narrow(n: Num, start: usize) -> Result<Literal, CallError> {
    match n {
        Num::Int(i) => {
            i64::try_from(i).map(Literal::Int).map_err(|_| err(start, format!("integer {i} does not fit in 64 bits")))
        }
        Num::Float(f) => Ok(Literal::Float(f)),
    }
}
