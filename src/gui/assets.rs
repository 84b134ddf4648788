//! The page's files, embedded in the binary: the only files the server ever sends (request
//! paths are looked up in this table and never reach the file system).

/// One embedded file.
pub struct Asset {
    /// The request path that gets it.
    pub path: &'static str,
    /// Its `Content-Type`.
    pub content_type: &'static str,
    /// Its text.
    pub body: &'static str,
}

const HTML: &str = "text/html; charset=utf-8";

/// Every file the server has.
pub const ASSETS: &[Asset] = &[
    Asset {
        path: "/",
        content_type: HTML,
        body: include_str!("page/index.html"),
    },
    Asset {
        path: "/index.html",
        content_type: HTML,
        body: include_str!("page/index.html"),
    },
    Asset {
        path: "/style.css",
        content_type: "text/css; charset=utf-8",
        body: include_str!("page/style.css"),
    },
    Asset {
        path: "/app.js",
        content_type: "text/javascript; charset=utf-8",
        body: include_str!("page/app.js"),
    },
    Asset {
        path: "/favicon.svg",
        content_type: "image/svg+xml",
        body: include_str!("page/favicon.svg"),
    },
];

/// The file served at `path`, if any.
pub fn find(path: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|a| a.path == path)
}

/// The policy sent with the page: it may load only its own files and talk only to its own
/// server.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; \
     frame-ancestors 'none'";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_refers_only_to_embedded_files() {
        let page = find("/").unwrap().body;
        for name in ["/style.css", "/app.js", "/favicon.svg"] {
            assert!(page.contains(&format!("\"{name}\"")), "{name}");
            assert!(find(name).is_some(), "{name}");
        }
        // The SVG namespace is a name, not an address that is fetched.
        for asset in ASSETS {
            let text = asset.body.replace("http://www.w3.org/2000/svg", "");
            assert!(!text.contains("http://"), "{}", asset.path);
            assert!(!text.contains("https://"), "{}", asset.path);
        }
        assert!(find("/../Cargo.toml").is_none());
    }
}
