//! Maven resolution: coordinates, repository discovery, POMs with parents, properties and
//! dependency management, transitive resolution with Maven's rules, and verified downloads
//! into a Maven-layout cache.
//!
//! Repository hosts are never spelled out here: the central repository is whatever the
//! installed Maven declares in its super-POM (see [`repo`]).

mod coordinate;
mod error;
pub mod limits;
mod metadata;
pub mod pom;
pub mod repo;
mod resolver;
mod transport;
pub mod version;
mod xml;
mod zipcheck;

pub use coordinate::Coordinate;
pub use error::{MavenError, Result};
pub use metadata::Metadata;
pub use pom::{Dependency, Exclusion, Pom};
pub use repo::{find_maven_home, super_pom_central, DiscoverOptions, RepoConfig, Repository};
pub use resolver::{
    Conflict, FetchedArtifact, Resolution, ResolvedArtifact, Resolver, ResolverOptions, Scope,
};
pub use version::{compare_versions, MavenVersion, VersionRange};
