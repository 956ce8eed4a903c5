//! Text and values the way JavaScript sees them, and the host's data read leniently.
//!
//! The reference measures and cuts text with `.length` and `.slice`, which count
//! UTF-16 code units, and trims with JS's whitespace set. Rust strings are UTF-8,
//! so every length, budget and cut point goes through here. The one deliberate
//! difference: a cut never splits a surrogate pair or a grapheme cluster.
//!
//! The parts: `js_string` (JS's whitespace, `.length`, `slice` indexes, span removal), `cut`
//! (the cuts: `head`, `tail`, `cut_middle`), `number` (`Number#toString`), `decimal` (a numeral read
//! as `str::parse::<f64>` reads it, without core's tables), `json` (JSON text
//! as JS writes it), `js_value` (a host value as `String(v)` and truthiness see it), `lenient`
//! (readers for which a bad field costs that field), `ansi` (terminal escapes, out of text
//! that is searched or scanned), and [`stamp`] (times as the reference prints them).

mod ansi;
mod cut;
mod decimal;
mod js_string;
mod js_value;
mod json;
mod lenient;
mod number;
pub mod stamp;

pub use ansi::strip_ansi;
pub use cut::{cut_middle, cut_middle_into, head, tail};
pub use js_string::{
    collapse_space, is_js_line_end, is_js_space, len16, remove_spans, slice_index, trim, trim_end,
};
pub use js_value::JsVal;
pub use json::well_formed_json;
pub use lenient::{lenient_string, raw_present, Lenient, LenientList, ListOrNot};
pub use number::number_to_string;

/// `s` on one line of at most `max` UTF-16 units: whitespace collapsed and trimmed, a longer
/// line cut in its middle at `…` (its start and its end tell commands and paths apart).
pub fn one_line(s: &str, max: usize) -> String {
    let one = trim(&collapse_space(s)).to_owned();
    let len = len16(&one);
    if len <= max || max < 2 {
        return one;
    }
    let head = head(&one, max * 7 / 10);
    let tail = tail(&one, len - (max - len16(head) - 1));
    format!("{head}…{tail}")
}

/// Whether `w` is one of the space-separated words of `list`. Word lists are one string each,
/// not arrays of strings: the .wasm then keeps the words, not a pointer and a length per word.
pub fn one_of(list: &str, w: &str) -> bool {
    list.split(' ').any(|x| x == w)
}
