public import JSON
public import PagerModel

// The one encoder of each settings value. The settings document of
// `GET /v1/sessions/{id}/settings` is written with them straight into bytes; a PATCH merges over
// the same document built as a tree (`JSONTreeWriter`); the state document writes the members it
// shares with the settings (the actions, the empty state, the viewport, the auto-advance setting)
// with them too; a stored record holds the settings as this document. `PagerSettings(json:)`
// (PagerSettings+Decoding.swift) reads it back.
//
// They are inlinable so that the modules writing with them (PagerAPI's state document, on every
// answer) specialise them for their sink, as when they lived there.

/// A value with one encoder, written into any ``JSONSink``.
public protocol JSONEncodable {
    /// Writes the value.
    func encode<Sink: JSONSink & ~Copyable>(into w: inout Sink)
}

extension Optional where Wrapped: JSONEncodable {
    /// Writes the value, or null when there is none.
    @inlinable public func encode<Sink: JSONSink & ~Copyable>(into w: inout Sink) {
        if let value = self { value.encode(into: &w) } else { w.null() }
    }
}

extension PagerAction: JSONEncodable {
    /// Writes `{id, title}`.
    @inlinable public func encode<Sink: JSONSink & ~Copyable>(into w: inout Sink) {
        w.beginObject()
        w.field("id"); w.string(id)
        w.field("title"); w.string(title)
        w.endObject()
    }
}

extension EmptyState: JSONEncodable {
    /// Writes `{title, action}`, the action null when there is none.
    @inlinable public func encode<Sink: JSONSink & ~Copyable>(into w: inout Sink) {
        w.beginObject()
        w.field("title"); w.string(title)
        w.field("action"); action.encode(into: &w)
        w.endObject()
    }
}

extension AutoAdvanceSettings: JSONEncodable {
    /// Writes `{enabled, interval, direction, atEnd, onInteraction}`.
    @inlinable public func encode<Sink: JSONSink & ~Copyable>(into w: inout Sink) {
        w.beginObject()
        encodeMembers(into: &w)
        w.endObject()
    }

    /// Writes the members of ``encode(into:)`` into an object the caller opened, which may add
    /// more (the state document adds where the timer is).
    @inlinable public func encodeMembers<Sink: JSONSink & ~Copyable>(into w: inout Sink) {
        w.field("enabled"); w.bool(enabled)
        w.field("interval"); w.int(interval)
        w.field("direction"); w.string(direction.rawValue)
        w.field("atEnd"); w.string(atEnd.rawValue)
        w.field("onInteraction"); w.string(onInteraction.rawValue)
    }
}

extension RubberBand: JSONEncodable {
    /// Writes `{style, ratio}`.
    @inlinable public func encode<Sink: JSONSink & ~Copyable>(into w: inout Sink) {
        w.beginObject()
        w.field("style"); w.string(style.rawValue)
        w.field("ratio"); w.number(ratio)
        w.endObject()
    }
}

extension AccessibilityText: JSONEncodable {
    /// Writes the four texts.
    @inlinable public func encode<Sink: JSONSink & ~Copyable>(into w: inout Sink) {
        w.beginObject()
        w.field("tabValueFormat"); w.string(tabValueFormat)
        w.field("pageValueFormat"); w.string(pageValueFormat)
        w.field("firstPageMessage"); w.string(firstPageMessage)
        w.field("lastPageMessage"); w.string(lastPageMessage)
        w.endObject()
    }
}

extension IndicatorInset: JSONEncodable {
    /// Writes `{leading, trailing, firstLeading, lastTrailing}`.
    @inlinable public func encode<Sink: JSONSink & ~Copyable>(into w: inout Sink) {
        w.beginObject()
        w.field("leading"); w.number(leading)
        w.field("trailing"); w.number(trailing)
        w.field("firstLeading"); w.number(firstLeading)
        w.field("lastTrailing"); w.number(lastTrailing)
        w.endObject()
    }
}

extension TitleStyle: JSONEncodable {
    /// Writes `{color, selectedColor, scale, selectedScale}`, the colours as `#RRGGBBAA`.
    @inlinable public func encode<Sink: JSONSink & ~Copyable>(into w: inout Sink) {
        w.beginObject()
        w.field("color"); w.string(color.hex)
        w.field("selectedColor"); w.string(selectedColor.hex)
        w.field("scale"); w.number(scale)
        w.field("selectedScale"); w.number(selectedScale)
        w.endObject()
    }
}

extension TabBarSettings: JSONEncodable {
    /// Writes the tab bar's settings, the indicator's in an object of their own and the unset
    /// ones as null.
    @inlinable public func encode<Sink: JSONSink & ~Copyable>(into w: inout Sink) {
        w.beginObject()
        w.field("layout"); w.string(layout.rawValue)
        w.field("spacing"); w.number(spacing)
        w.field("inset"); w.number(inset)
        w.field("minTabWidth"); w.number(minTabWidth)
        w.field("tabPadding"); w.number(tabPadding)
        w.field("charWidth"); w.number(charWidth)
        w.field("alignment"); w.string(alignment.rawValue)
        w.field("selectedScrollPosition"); w.string(selectedScrollPosition.rawValue)
        w.field("indicator")
        w.beginObject()
        w.field("style"); w.string(indicatorStyle.rawValue)
        w.field("height"); w.number(indicatorHeight)
        w.field("overscroll"); w.string(indicatorOverscroll.rawValue)
        w.field("tracking"); w.string(indicatorTracking.rawValue)
        w.field("progressive"); w.bool(indicatorProgressive)
        w.field("inset"); indicatorInset.encode(into: &w)
        w.endObject()
        w.field("title"); title.encode(into: &w)
        w.field("maxTabWidth"); if let maxTabWidth { w.number(maxTabWidth) } else { w.null() }
        w.field("selectedTabWidth"); if let selectedTabWidth { w.number(selectedTabWidth) } else { w.null() }
        w.endObject()
    }
}

extension ReleaseSettings: JSONEncodable {
    /// Writes `{flickVelocity}`.
    @inlinable public func encode<Sink: JSONSink & ~Copyable>(into w: inout Sink) {
        w.beginObject()
        w.field("flickVelocity"); w.number(flickVelocity)
        w.endObject()
    }
}

extension PagerSettings: JSONEncodable {
    /// Writes the settings document: every member present, the unset ones as null, so a client
    /// sees each setting's effective value. It round-trips: a create or a PATCH with it gives
    /// these settings (null reads as unset).
    @inlinable public func encode<Sink: JSONSink & ~Copyable>(into w: inout Sink) {
        w.beginObject()
        w.field("mode"); w.string(mode.rawValue)
        w.field("viewport")
        w.beginObject()
        encodeViewportMembers(pageLayout: true, into: &w)
        w.endObject()
        w.field("layoutDirection"); w.string(layoutDirection.rawValue)
        w.field("orientation"); w.string(orientation.rawValue)
        w.field("swipe"); w.string(swipe.rawValue)
        w.field("rubberBand"); rubberBand.encode(into: &w)
        w.field("autoAdvance"); autoAdvance.encode(into: &w)
        w.field("accessibilityText"); accessibilityText.encode(into: &w)
        w.field("tabBar"); tabBar.encode(into: &w)
        w.field("preload"); w.int(preload)
        w.field("release"); release.encode(into: &w)
        w.field("dragTimeout"); w.int(dragTimeout)
        w.field("trailingAction"); trailingAction.encode(into: &w)
        w.field("emptyState"); emptyState.encode(into: &w)
        w.endObject()
    }

    /// Writes the viewport's members into an object the caller opened: the size, then the page
    /// layout (pages per view, spacing, centring) when `pageLayout` is true.
    @inlinable public func encodeViewportMembers<Sink: JSONSink & ~Copyable>(pageLayout: Bool, into w: inout Sink) {
        w.field("width"); w.number(viewportWidth)
        w.field("height"); w.number(viewportHeight)
        guard pageLayout else { return }
        w.field("pagesPerView"); w.number(pagesPerView)
        w.field("pageSpacing"); w.number(pageSpacing)
        w.field("centered"); w.bool(pagesCentered)
    }

    /// The settings document of `GET /v1/sessions/{id}/settings`, as bytes.
    public var documentBytes: [UInt8] {
        JSONWriter.bytes(capacity: 1536) { w in encode(into: &w) }
    }

    /// The settings document as a tree: what a PATCH merges over.
    public var document: JSONObject {
        var tree = JSONTreeWriter()
        encode(into: &tree)
        guard let object = tree.object else { preconditionFailure("the settings document is an object") }
        return object
    }
}
