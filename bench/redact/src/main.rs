//! Native figures: each redactor over every line of every transcript under the folder given
//! (default ../shared/real-transcripts), best of 9 alternating rounds, MB/s and new/old.

use std::time::Instant;

use redact_bench::{each_line, new, old};

fn main() {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "../shared/real-transcripts".into());
    let mut files = Vec::new();
    collect(std::path::Path::new(&dir), &mut files);
    files.sort();
    let text: String = files
        .iter()
        .filter_map(|f| std::fs::read_to_string(f).ok())
        .collect::<Vec<_>>()
        .join("\n");
    let mb = text.len() as f64 / (1 << 20) as f64;
    let lines = text.lines().count();
    println!("native: {} files, {lines} lines, {mb:.1} MB", files.len());
    // `ONLY=old`, `ONLY=new`: one pass of that redactor alone; `ONLY=none`: no pass (the
    // reading of the files), for counting instructions, which the machine's load does not
    // move (run.sh runs them under valgrind's callgrind).
    if let Ok(which) = std::env::var("ONLY") {
        let changed = match which.as_str() {
            "old" => each_line(&text, old::redact),
            "new" => each_line(&text, new::redact),
            _ => 0,
        };
        println!("{which}: {changed} lines changed");
        return;
    }
    // Old and new alternate, 9 rounds, best of each: the machine's load drifts, and both
    // see it.
    let _ = old::redact("warm-up password=x");
    let _ = new::redact("warm-up password=x");
    let (mut old_best, mut new_best) = (f64::INFINITY, f64::INFINITY);
    let (mut old_changed, mut new_changed) = (0, 0);
    for _ in 0..9 {
        let t = Instant::now();
        old_changed = each_line(&text, old::redact);
        old_best = old_best.min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        new_changed = each_line(&text, new::redact);
        new_best = new_best.min(t.elapsed().as_secs_f64());
    }
    let (old_rate, new_rate) = (mb / old_best, mb / new_best);
    if std::env::var("PER_FILE").is_ok() {
        for f in &files {
            let t = std::fs::read_to_string(f).unwrap_or_default();
            let (mut o, mut n) = (f64::INFINITY, f64::INFINITY);
            for _ in 0..5 {
                let s = Instant::now();
                each_line(&t, old::redact);
                o = o.min(s.elapsed().as_secs_f64());
                let s = Instant::now();
                each_line(&t, new::redact);
                n = n.min(s.elapsed().as_secs_f64());
            }
            println!("{:8.1} KB old {:7.2} ms new {:7.2} ms  {:.2}x {}", t.len() as f64 / 1024.0, o * 1e3, n * 1e3, o / n, f.display());
        }
    }
    println!("native old redactor: {old_rate:7.1} MB/s ({old_changed} lines changed)");
    println!("native new redactor: {new_rate:7.1} MB/s ({new_changed} lines changed)");
    println!("native new/old:      {:7.2}x", new_rate / old_rate);
}

fn collect(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "jsonl") {
            out.push(path);
        }
    }
}
