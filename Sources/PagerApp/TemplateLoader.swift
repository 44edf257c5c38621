import Foundation
import JSON
import PagerAPI
import PagerModel

/// Reads every `*.json` file of the templates folder and validates it; a bad file stops start-up
/// with a message naming the file and the field.
enum TemplateLoader {
    static func load(from folder: String, limits: PagerLimits) throws(ConfigurationError) -> [Template] {
        let files: [String]
        do {
            files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }
                .sorted()
        } catch {
            throw ConfigurationError(setting: "templates", source: folder, reason: "the folder cannot be read")
        }
        var templates: [Template] = []
        for file in files {
            let path = (folder as NSString).appendingPathComponent(file)
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ConfigurationError(setting: "templates", source: path, reason: "the file cannot be read")
            }
            do {
                let template = try Template(json: try JSONParser.parse(Array(data)), limits: limits)
                guard !templates.contains(where: { $0.name == template.name }) else {
                    throw ConfigurationError(
                        setting: "templates", source: path, reason: "a second template is called '\(template.name)'")
                }
                templates.append(template)
            } catch let error as ConfigurationError {
                throw error
            } catch {
                throw ConfigurationError(setting: "templates", source: path, reason: "\(error)")
            }
        }
        return templates
    }
}

/// Reads the demo web client's files; a missing folder serves no demo (logged, not fatal).
enum WebLoader {
    static func load(from folder: String) -> [String: WebFile]? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        var files: [String: WebFile] = [:]
        for name in names where !name.hasPrefix(".") {
            let path = (folder as NSString).appendingPathComponent(name)
            if let data = FileManager.default.contents(atPath: path) {
                files[name] = WebFile(name: name, bytes: Array(data))
            }
        }
        return files
    }
}
