import PagerModel

/// Session definitions the engine tests create, as the shipped templates of the same names
/// define them (without their content).
enum Definitions {
    /// Three fixed tabs in a bounded pager.
    static let media = PagerDefinition(
        pages: [
            Page(id: "photos", title: "Photos"), Page(id: "videos", title: "Videos"), Page(id: "music", title: "Music"),
        ],
        initialPage: nil, settings: PagerSettings(), catalog: [])

    /// Three fixed tabs in a loop.
    static var mall: PagerDefinition {
        var settings = PagerSettings()
        settings.mode = .loop
        return PagerDefinition(
            pages: [
                Page(id: "product", title: "상품"), Page(id: "recent", title: "최근 본 상품"),
                Page(id: "wishlist", title: "찜"),
            ],
            initialPage: nil, settings: settings, catalog: [])
    }
}
