//! Motion matching's searches as `--match-report` writes them: every search, its ten best
//! candidates in order of cost with each feature group's share, the frame playing, the frame
//! chosen, and whether it switched; agreeing with the run's own counts and outcome.

use crate::common;

use common::skinscope;
use serde_json::Value;
use skinscope_testkit::temp_dir;

#[test]
fn every_search_lists_its_best_candidates_and_why_it_kept_or_left_the_playing_frame() {
    let dir = temp_dir("match-report");
    let path = dir.join("path.json");
    // Stand, walk ahead, then turn right: the searches keep and switch.
    std::fs::write(
        &path,
        r#"{"keys":[{"t":0,"velocity":[0,0,0]},{"t":0.5,"velocity":[0,0,1.3]},{"t":2.0,"velocity":[1.3,0,0]}]}"#,
    )
    .unwrap();
    let report = dir.join("report.json");
    let (code, out, err) = skinscope(&[
        "palette",
        "--json",
        "--motion-matching",
        "--path",
        path.to_str().unwrap(),
        "--simulate",
        "3",
        "--match-report",
        report.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let run: Value = serde_json::from_str(&out).unwrap();
    let summary = &run["motion_matching"];
    let searches: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(searches.len() as u64, summary["searches"].as_u64().unwrap());
    let switched = searches.iter().filter(|s| s["switched"] == true).count();
    assert_eq!(switched as u64, summary["switches"].as_u64().unwrap());
    assert!(
        switched >= 2,
        "the goal's changes switched {switched} times"
    );
    assert!(
        searches.len() > switched,
        "some searches kept the playing frame"
    );
    for (k, s) in searches.iter().enumerate() {
        assert_eq!(s["search"].as_u64().unwrap(), k as u64 + 1);
        let candidates = s["candidates"].as_array().unwrap();
        assert_eq!(candidates.len(), 10, "search {k}");
        let cost = |c: &Value| c["cost"].as_f64().unwrap();
        for pair in candidates.windows(2) {
            assert!(
                cost(&pair[0]) <= cost(&pair[1]),
                "search {k}: not in order of cost"
            );
        }
        for c in candidates
            .iter()
            .chain(s["playing"].as_object().map(|_| &s["playing"]))
        {
            let groups = c["costs"].as_array().unwrap();
            assert_eq!(groups.len(), 7, "the seven feature groups");
            let sum: f64 = groups.iter().map(|g| g[1].as_f64().unwrap()).sum();
            assert!(
                (sum - cost(c)).abs() <= 1e-5 * cost(c).max(1.0),
                "search {k}"
            );
        }
        let names: Vec<&str> = candidates[0]["costs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g[0].as_str().unwrap())
            .collect();
        assert!(names.contains(&"trajectory positions") && names.contains(&"hips velocity"));
        let (chosen, best) = (&s["chosen"], &candidates[0]);
        if s["switched"] == true {
            assert_eq!(chosen["frame"], best["frame"], "search {k}");
            assert_ne!(chosen["frame"], s["playing"]["frame"], "search {k}");
            let why = s["why"].as_str().unwrap();
            assert!(why.starts_with("switched"), "{why}");
            // The best beat the one playing, unless that one could not go on.
            if !why.contains("no candidate") {
                assert!(cost(best) < cost(&s["playing"]), "search {k}");
            }
        } else {
            assert_eq!(chosen["frame"], s["playing"]["frame"], "search {k}");
            assert!(s["why"].as_str().unwrap().starts_with("kept"));
        }
    }
    // The clip playing at the end is the last switch's.
    let last = searches
        .iter()
        .rev()
        .find(|s| s["switched"] == true)
        .unwrap();
    assert_eq!(last["chosen"]["clip"], summary["clip"]);
}

#[test]
fn a_match_report_needs_motion_matching_and_a_writable_file() {
    let (code, _, err) = skinscope(&["palette", "--match-report", "x.json"]);
    assert_eq!(code, 2);
    assert!(err.contains("--motion-matching"), "{err}");
    let (code, _, err) = skinscope(&[
        "palette",
        "--motion-matching",
        "--simulate",
        "0.5",
        "--match-report",
        "/nonexistent-folder/r.json",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--match-report"), "{err}");
}
