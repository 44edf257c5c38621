import Testing

@testable import PagerStorage

/// The writer queue's record of the room left, which the writer and readers measure at once.
@Suite struct WriterQueueTests {
    @Test func aMeasureBegunBeforeTheLastOneRecordedIsDropped() {
        let queue = WriterQueue<Int>()
        #expect(queue.setShortage("short", at: 1.0))
        #expect(!queue.isAcceptingChanges)
        // A reader claims a measure at 1.1 and finds room.
        #expect(queue.roomMeasureDue(at: 1.1, whileShort: 0.1, otherwise: 1))
        #expect(queue.setShortage(nil, at: 1.1))
        // The writer's measure, begun at 1.05 while the disk was still full, lands last: dropped.
        #expect(!queue.setShortage("short", at: 1.05))
        #expect(queue.isAcceptingChanges)
        // A later one is taken.
        #expect(queue.setShortage("short", at: 1.2))
        #expect(!queue.isAcceptingChanges)
    }
}
