//! `docs/cli.md` is the command line's own help, generated: `skinscope --help` and each
//! subcommand's `--help`, in order. The test fails when the checked-in reference is stale;
//! `SKINSCOPE_BLESS=1 cargo test --test cli_reference` writes it again.

use std::path::Path;
use std::process::Command;

fn help(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_skinscope"))
        .args(args)
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
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
         (`tests/cli_reference.rs` checks it and, with `SKINSCOPE_BLESS=1`, writes it again). \
         [The user guide](guide.md) shows the commands at work.\n",
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
        "docs/cli.md is stale: run SKINSCOPE_BLESS=1 cargo test --test cli_reference"
    );
}
