import Foundation
import PagerApp

let status = await Pagerd.main(
    arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
exit(status)
