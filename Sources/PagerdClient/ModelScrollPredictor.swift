import Foundation
import JSON
import PagerDocuments
import PagerModel

/// The predictor every client has unless told otherwise: pagerd's own model (the `PagerModel`
/// module, through `PagerDocuments`), so a prediction is computed by the code the server runs
/// for the scroll and equals its answer.
///
/// The typed state and settings are written as JSON and read back by the model's document
/// reader, the one reader of pagerd's documents, so the client keeps no second mapping of the
/// settings to maintain. The last state and settings read are kept with the predictor they made:
/// a view asks for many frames from one state (every frame of a swipe until the next answer
/// arrives), and each of those is then only the model's arithmetic.
public final class ModelScrollPredictor: ScrollPredicting, @unchecked Sendable {
    // @unchecked: `last` is read and written only under `lock`.
    private let lock = NSLock()
    private var last: (state: PagerState, settings: PagerSettings, predictor: ScrollPredictor)?

    /// Creates a predictor.
    public init() {}

    public func predictScroll(
        state: PagerState, settings: PagerSettings, input: ScrollInput
    ) throws(PagerClientError)
        -> ScrollMembers
    {
        do {
            let predictor = try self.predictor(state: state, settings: settings)
            let members = try predictor.predict(Self.modelInput(input))
            return try JSONDecoder().decode(ScrollMembers.self, from: Data(JSONWriter.encode(members.document)))
        } catch let error as PredictionError {
            switch error.code {
            case .invalidRequest:
                throw .problem(
                    PagerProblem(status: 400, code: error.code.rawValue, field: error.field, detail: error.detail))
            case .emptyPager:
                throw .problem(PagerProblem(status: 409, code: error.code.rawValue, detail: error.detail))
            case .unexpectedDocument:
                throw .unexpectedResponse(status: 0, detail: error.detail)
            }
        } catch {
            throw .unexpectedResponse(status: 0, detail: "\(error)")
        }
    }

    /// The model's predictor for `state` and `settings`: the one kept when both are those of the
    /// last call, else one read from their documents (and kept).
    private func predictor(state: PagerState, settings: PagerSettings) throws -> ScrollPredictor {
        if let kept = lock.withLock({ last }), kept.state == state, kept.settings == settings { return kept.predictor }
        let encoder = JSONEncoder()
        let predictor = try ScrollPredictor(
            state: try JSONParser.parse(Array(encoder.encode(state))),
            settings: try JSONParser.parse(Array(encoder.encode(settings))))
        lock.withLock { last = (state, settings, predictor) }
        return predictor
    }

    /// `input` as the model takes it.
    private static func modelInput(_ input: ScrollInput) -> PagerModel.ScrollInput {
        switch input {
        case .progress(let value): .progress(value)
        case .offset(let value): .offset(value)
        case .windowOffset(let value): .windowOffset(value)
        }
    }
}
