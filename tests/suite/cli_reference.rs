//! The command line's references, generated and checked in: `docs/cli.md` (its own help:
//! `skinscope --help` and each subcommand's `--help`, in order), the man pages in `docs/man/`
//! (`skinscope man`) and the shell completions in `docs/completions/` (`skinscope completions
//! SHELL`). The tests fail when a checked-in copy is stale; `SKINSCOPE_BLESS=1 cargo test --test
//! cli_reference` writes them again.

use std::path::Path;
use std::process::Command;

/// `skinscope ARGS --help`'s text.
fn help(args: &[&str]) -> String {
    String::from_utf8(skinscope(&[args, &["--help"]].concat())).unwrap()
}

/// The subcommands `skinscope --help` lists, in its order (clap's own `help` left out).
fn subcommands(top: &str) -> Vec<String> {
    let list = &top[top.find("\nCommands:\n").expect("a Commands section") + 11..];
    list.lines()
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// The reference as Markdown.
fn reference() -> String {
    let top = help(&[]);
    let mut md = String::from(
        "# Command-line reference\n\nGenerated from the command line's own help \
         (`tests/suite/cli_reference.rs` checks it and, with `SKINSCOPE_BLESS=1`, writes it again). \
         [The user guide](guide.md) shows the commands at work. The same definitions give the \
         man pages in [man/](man/) (`skinscope man --out DIR`) and the shell completions in \
         [completions/](completions/) (`skinscope completions bash|zsh|fish|elvish|powershell`).\n",
    );
    let mut section = |title: &str, text: &str| {
        md.push_str(&format!(
            "\n## `{title}`\n\n```text\n{}\n```\n",
            text.trim_end()
        ));
    };
    section("skinscope", &top);
    for name in subcommands(&top) {
        section(&format!("skinscope {name}"), &help(&[&name]));
    }
    md
}

#[test]
fn the_checked_in_command_line_reference_is_the_help_of_every_command() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/cli.md");
    let wanted = reference();
    if std::env::var_os("SKINSCOPE_BLESS").is_some() {
        std::fs::write(&path, &wanted).unwrap();
    }
    let held = std::fs::read_to_string(&path).unwrap_or_default();
    // Every subcommand is in it, each under its own heading.
    for name in subcommands(&help(&[])) {
        assert!(wanted.contains(&format!("## `skinscope {name}`")), "{name}");
    }
    assert!(
        held == wanted,
        "docs/cli.md is stale: run SKINSCOPE_BLESS=1 cargo test --test suite cli_reference::"
    );
}

fn skinscope(args: &[&str]) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_skinscope"))
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {out:?}");
    out.stdout
}

/// `wanted` against the checked-in `docs/<rel>`, written first under SKINSCOPE_BLESS.
fn held_as(rel: &str, wanted: &[u8]) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs").join(rel);
    if std::env::var_os("SKINSCOPE_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, wanted).unwrap();
    }
    let held = std::fs::read(&path).unwrap_or_default();
    assert!(
        held == wanted,
        "docs/{rel} is stale: run SKINSCOPE_BLESS=1 cargo test --test suite cli_reference::"
    );
}

#[test]
fn the_checked_in_man_pages_are_one_for_the_command_and_one_a_subcommand() {
    let dir = std::env::temp_dir().join(format!("skinscope-man-{}", std::process::id()));
    skinscope(&["man", "--out", dir.to_str().unwrap()]);
    let mut pages: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    pages.sort();
    let mut wanted: Vec<String> = subcommands(&help(&[]))
        .iter()
        .map(|name| format!("skinscope-{name}.1"))
        .chain(["skinscope.1".to_string()])
        .collect();
    wanted.sort();
    assert_eq!(pages, wanted);
    for page in &pages {
        let roff = std::fs::read(dir.join(page)).unwrap();
        // A man page names itself and its command.
        let text = String::from_utf8_lossy(&roff);
        assert!(
            text.contains(".SH NAME") && text.contains(".SH SYNOPSIS"),
            "{page}"
        );
        held_as(&format!("man/{page}"), &roff);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_checked_in_completions_complete_every_subcommand() {
    for (shell, file) in [
        ("bash", "skinscope.bash"),
        ("zsh", "_skinscope"),
        ("fish", "skinscope.fish"),
    ] {
        let script = skinscope(&["completions", shell]);
        let text = String::from_utf8_lossy(&script);
        for name in subcommands(&help(&[])) {
            assert!(text.contains(&name), "{shell}: {name}");
        }
        held_as(&format!("completions/{file}"), &script);
    }
}
