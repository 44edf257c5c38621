import JSON
import PagerDocuments
import PagerModel
import PagerWire
import Testing

// A client reads the settings document with the server's own reader of the settings, so a setting
// the server writes is one the predictor reads, and a newer server's extra members do no harm.
struct SettingsDocumentReadingTests {
    /// Every setting that bears on a scroll away from its default, and some that do not.
    static var changed: PagerSettings {
        var settings = PagerSettings()
        settings.mode = .loop
        settings.viewportWidth = 412.5
        settings.viewportHeight = 700
        settings.pagesPerView = 1.25
        settings.pageSpacing = 10
        settings.pagesCentered = true
        settings.layoutDirection = .rtl
        settings.orientation = .vertical
        settings.swipe = .forward
        settings.rubberBand.style = .resistance
        settings.rubberBand.ratio = 0.7
        settings.tabBar.layout = .scrollable
        settings.tabBar.spacing = 4.25
        settings.tabBar.inset = 12
        settings.tabBar.alignment = .trailing
        settings.tabBar.selectedScrollPosition = .leading
        settings.tabBar.selectedTabWidth = 120
        settings.tabBar.indicatorStyle = .elastic
        settings.tabBar.indicatorTracking = .halfway
        settings.tabBar.indicatorOverscroll = .compress
        settings.tabBar.indicatorProgressive = true
        settings.tabBar.indicatorHeight = 3
        settings.tabBar.indicatorInset.leading = 1
        settings.tabBar.indicatorInset.trailing = 2
        settings.tabBar.indicatorInset.firstLeading = 3
        settings.tabBar.indicatorInset.lastTrailing = 4.5
        var title = TitleStyle()
        title.color = RGBA(red: 1, green: 2, blue: 3, alpha: 4)
        title.selectedColor = RGBA(red: 200, green: 100, blue: 50)
        title.scale = 0.9
        title.selectedScale = 1.25
        settings.tabBar.title = title
        settings.preload = 2
        settings.emptyState = EmptyState(title: "Nothing yet", action: PagerAction(id: "new", title: "New"))
        settings.accessibilityText.tabValueFormat = "Onglet {position} sur {count}"
        return settings
    }

    @Test("the document the server writes reads back as the settings it was written from")
    func roundTrip() throws {
        for settings in [PagerSettings(), Self.changed] {
            let document = try JSONParser.parse(settings.documentBytes)
            #expect(try ScrollPredictor.settings(document: document) == settings)
        }
    }

    @Test("members a newer server adds are ignored, at the top and inside objects")
    func newerMembers() throws {
        guard case .object(var document) = try JSONParser.parse(Self.changed.documentBytes),
            case .object(var bar) = document["tabBar"], case .object(var indicator) = bar["indicator"]
        else { Issue.record("the settings document is not an object"); return }
        document["haptics"] = .object(["enabled": true])
        indicator["cornerRadius"] = 2
        bar["indicator"] = .object(indicator)
        document["tabBar"] = .object(bar)
        #expect(try ScrollPredictor.settings(document: .object(document)) == Self.changed)
    }

    @Test("a member of the wrong kind is refused, naming it")
    func wrongKind() throws {
        let document = try JSONParser.parse(Array(#"{"tabBar":{"indicator":{"height":"tall"}}}"#.utf8))
        #expect {
            _ = try ScrollPredictor.settings(document: document)
        } throws: { error in
            guard let error = error as? PredictionError else { return false }
            return error.code == .unexpectedDocument && error.detail.contains("tabBar.indicator.height")
        }
    }
}
