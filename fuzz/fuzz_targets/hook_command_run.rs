//! The `command.run` hook (`/pin`, `/unpin`, `/recall`), driven to its end by a fuzzed host.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| compact_plus_fuzz::hook_target("hook_command_run", "command.run", data));
