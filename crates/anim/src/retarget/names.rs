//! Joint names brought to one spelling for matching across the naming conventions riggers and
//! exporters use: Mixamo (`mixamorig:LeftUpLeg`), Unreal's mannequin (`thigh_l`, `calf_l`,
//! `ball_l`), Blender's metarig and rigify (`thigh.L`, `DEF-upper_arm.L`, `spine.003`), VRM's
//! humanoid bones (`leftUpperLeg`, `upperChest`) and VRoid's (`J_Bip_L_UpperArm`), CMU's and
//! Truebones' BVH (`LHipJoint`, `LowerBack`, `Bip01 L Thigh`, `LeftCollar`/`LeftShoulder`), and
//! the built-in mannequin (`upperarm_l`, `shin_l`).

use super::Skeleton;

/// A joint name brought to one spelling for matching: without a namespace (`mixamorig:Hips`,
/// `Armature|Hips`) or a rig's prefix (`DEF-`, `J_Bip_`, `Bip01 `), lower case, its side as a
/// `left ` / `right ` prefix (`LeftArm`, `arm.L`, `upperarm_l`, `L_arm`, `LHipJoint`), then the
/// body part by its usual synonyms. A name alone: `canonical_names` also reads what a whole
/// skeleton says of its convention.
pub fn canonical_name(name: &str) -> String {
    let (side, part) = split(name);
    let part = synonym(&part).map_or(part, str::to_string);
    join(side, &part)
}

/// Every joint's canonical name, reading the skeleton's convention where one spelling means
/// different parts in different rigs: a Blender metarig's `spine` is the hips (its chain runs
/// `spine.001` up to `spine.006`, the head), and in a Biovision-style BVH (one with `Collar`
/// joints) `Shoulder` is the upper arm and `Hip` the thigh.
pub fn canonical_names(skeleton: &Skeleton) -> Vec<String> {
    let split: Vec<(Option<&'static str>, String)> =
        skeleton.names().iter().map(|n| split(n)).collect();
    let metarig = split
        .iter()
        .any(|(_, p)| metarig_index(p).is_some_and(|k| k > 0));
    let biovision = split.iter().any(|(_, p)| p == "collar");
    split
        .into_iter()
        .map(|(side, part)| {
            let part = match (side, part.as_str()) {
                (None, p) if metarig && metarig_index(p).is_some() => {
                    METARIG_SPINE[metarig_index(p).unwrap_or(0)].to_string()
                }
                (Some(_), "shoulder") if biovision => "upperarm".to_string(),
                (Some(_), "collar") if biovision => "shoulder".to_string(),
                (Some(_), "hip") if biovision => "thigh".to_string(),
                (_, p) => synonym(p).map_or_else(|| p.to_string(), str::to_string),
            };
            join(side, &part)
        })
        .collect()
}

/// A metarig's spine chain, by its number (`spine`, `spine.001` ... `spine.006`).
const METARIG_SPINE: [&str; 7] = ["hips", "spine", "spine1", "spine2", "neck", "neck1", "head"];

/// `spine` -> 0, `spine001` (from `spine.001`) -> 1 ... up to 6.
fn metarig_index(part: &str) -> Option<usize> {
    let rest = part.strip_prefix("spine")?;
    if rest.is_empty() {
        return Some(0);
    }
    let k: usize = rest.strip_prefix("00")?.parse().ok()?;
    (1..METARIG_SPINE.len()).contains(&k).then_some(k)
}

fn join(side: Option<&str>, part: &str) -> String {
    match side {
        Some(s) => format!("{s} {part}"),
        None => part.to_string(),
    }
}

/// The side a name says and its part: lower case, alphanumeric, without namespace or prefix.
fn split(name: &str) -> (Option<&'static str>, String) {
    let base = name
        .rsplit([':', '|'])
        .next()
        .unwrap_or(name)
        .trim()
        .to_ascii_lowercase();
    let mut base = base.as_str();
    for prefix in PREFIXES {
        if let Some(rest) = base.strip_prefix(prefix) {
            base = rest;
            break;
        }
    }
    // VRoid's centre letter (`J_Bip_C_Hips`).
    let base = base.strip_prefix("c_").unwrap_or(base);
    let (side, rest) = side_of(base);
    let part: String = rest.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
    (side, part)
}

/// A rig's prefixes that say nothing of the body part: rigify's deform and original bones,
/// VRoid's, 3ds Max Biped's (`Bip01 L Thigh`).
const PREFIXES: [&str; 7] = [
    "def-", "org-", "def_", "j_bip_", "bip01 ", "bip001 ", "bip01_",
];

/// Body parts by their names in the common conventions, and the one name each is matched by.
pub(super) const SYNONYMS: &[(&[&str], &str)] = &[
    (&["hips", "pelvis", "hip"], "hips"),
    (&["spine", "spine01", "lowerback", "spinelower"], "spine"),
    (&["spine1", "spine02", "chest", "spinemid"], "spine1"),
    (&["spine2", "spine03", "upperchest", "spineupper"], "spine2"),
    (&["spine3", "spine04"], "spine3"),
    (&["spine4", "spine05"], "spine4"),
    (&["neck", "neck01"], "neck"),
    (&["head"], "head"),
    (&["shoulder", "clavicle", "collar"], "shoulder"),
    (&["arm", "upperarm", "humerus"], "upperarm"),
    (&["forearm", "lowerarm", "elbow"], "forearm"),
    (&["hand", "wrist"], "hand"),
    (&["upleg", "thigh", "upperleg", "femur"], "thigh"),
    (&["leg", "shin", "calf", "lowerleg", "knee"], "shin"),
    (&["foot", "ankle"], "foot"),
    (&["toebase", "toe", "toes", "ball", "toe0"], "toe"),
];

/// The canonical part a (side-less, alphanumeric) name is a synonym of.
fn synonym(part: &str) -> Option<&'static str> {
    SYNONYMS
        .iter()
        .find(|(names, _)| names.contains(&part))
        .map(|(_, canonical)| *canonical)
}

/// The side a (lower-case) name says, and the name without it.
fn side_of(name: &str) -> (Option<&'static str>, String) {
    let sides = [("left", "left"), ("right", "right")];
    for (word, side) in sides {
        if let Some(rest) = name.strip_prefix(word) {
            return (Some(side), rest.to_string());
        }
        if let Some(rest) = name.strip_suffix(word) {
            return (Some(side), rest.to_string());
        }
    }
    let short = [("l", "left"), ("r", "right")];
    for (letter, side) in short {
        for sep in ['_', '.', ' ', '-'] {
            if let Some(rest) = name.strip_suffix(&format!("{sep}{letter}")) {
                return (Some(side), rest.to_string());
            }
            if let Some(rest) = name.strip_prefix(&format!("{letter}{sep}")) {
                return (Some(side), rest.to_string());
            }
        }
        // CMU's `LHipJoint`, `RThumb`: a capital side letter before a capitalised part (the name
        // is lower case by now, so only the known parts count).
        if let Some(rest) = name.strip_prefix(letter)
            && SYNONYMS
                .iter()
                .any(|(names, _)| names.contains(&rest.trim_matches('_')))
        {
            return (Some(side), rest.to_string());
        }
    }
    (None, name.to_string())
}

/// Words in joint names that say nothing of the body part (`Left_Knee_Jnt`, `thigh_bone_L`).
const NOISE: [&str; 6] = ["joint", "jnt", "bone", "bind", "skin", "deform"];

/// A looser reading of a canonical name, for fuzzy matching: without the noise words and
/// trailing digits, the part read through the synonyms again.
pub(super) fn loose(canonical: &str) -> String {
    let (side, part) = match canonical.split_once(' ') {
        Some((s @ ("left" | "right"), p)) => (Some(s), p),
        _ => (None, canonical),
    };
    let mut part = part.to_string();
    for word in NOISE {
        part = part.replace(word, "");
    }
    let part = part.trim_end_matches(|c: char| c.is_ascii_digit());
    let part = synonym(part).unwrap_or(part);
    match side {
        Some(s) => format!("{s} {part}"),
        None => part.to_string(),
    }
}

/// Levenshtein distance, for a misspelt part (`forarm`) on names of a few dozen characters.
pub(super) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(here + 1);
            prev = here;
        }
    }
    row[b.len()]
}
