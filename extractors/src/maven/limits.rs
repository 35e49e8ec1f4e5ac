//! The resolver's limits against hostile repositories and files: named, documented values
//! (the crate docs list them). Download limits are defaults of [`super::ResolverOptions`].

use std::time::Duration;

/// The largest file a download may bring (bytes): far above any published jar.
pub const DEFAULT_MAX_DOWNLOAD_BYTES: u64 = 2 << 30;

/// The time one file may take, all attempts at one repository included.
pub const DEFAULT_FILE_DEADLINE: Duration = Duration::from_secs(600);

/// An attempt that receives no byte for this long is abandoned (and retried).
pub const DEFAULT_STALL_TIMEOUT: Duration = Duration::from_secs(30);

/// A temporary download (`.thalia-*.part`) in the cache not modified for this long is left
/// over by a killed fetch and is removed when another download goes to its folder.
pub const STALE_PART_AGE: Duration = Duration::from_secs(3600);

/// The largest POM, `maven-metadata.xml` or `settings.xml` read (bytes).
pub const MAX_XML_BYTES: u64 = 16 << 20;

/// The deepest element nesting accepted in those XML files (real ones nest under 10).
pub const MAX_XML_DEPTH: usize = 100;

/// The most XML nodes (elements, texts, comments, …) parsed from one of those files.
pub const MAX_XML_NODES: u32 = 1_000_000;

/// The largest checksum file (`.sha1`, `.md5`) read (bytes).
pub const MAX_CHECKSUM_FILE_BYTES: u64 = 4096;

/// The longest a POM property value may become once its `${…}` references are expanded
/// (bytes).
pub const MAX_PROPERTY_EXPANSION_BYTES: usize = 1 << 20;

/// The most `${…}` substitutions made while building one effective POM (all its properties
/// and fields together).
pub const MAX_POM_SUBSTITUTIONS: usize = 100_000;

/// The most bytes all `${…}` substitutions of one effective POM may produce together.
pub const MAX_POM_EXPANSION_BYTES: usize = 16 << 20;

/// The longest coordinate part (group, artifact, version, classifier or extension) accepted,
/// in bytes: far above any published artifact.
pub const MAX_COORDINATE_PART_LEN: usize = 200;

/// The longest chain of POM parents, of nested BOM imports, or of relocations followed (real
/// ones have a handful of links; a repository could make them endless).
pub const MAX_POM_CHAIN: usize = 64;
