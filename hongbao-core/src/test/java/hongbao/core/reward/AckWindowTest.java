package hongbao.core.reward;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class AckWindowTest {

  @Test
  void committable_neverPassesTheLowestOffsetStillInFlight() {
    var window = new AckWindow();
    var taken = new HashMap<Long, AckWindow.Ticket>();
    for (long offset = 10; offset < 15; offset++) {
      taken.put(offset, window.track(0, offset));
    }
    window.done(taken.get(12L));
    window.done(taken.get(13L));
    assertThat(window.committable()).isEqualTo(Map.of(0, 10L));

    window.done(taken.get(10L));
    assertThat(window.committable()).isEqualTo(Map.of(0, 11L));
    assertThat(window.committable()).as("nothing moved since").isEmpty();

    window.done(taken.get(11L));
    window.done(taken.get(14L));
    assertThat(window.committable()).isEqualTo(Map.of(0, 15L));
    assertThat(window.inFlight()).isZero();
  }

  @Test
  void committable_inAnyOrderOfCompletion_isAlwaysAPrefixOfDoneOffsets() {
    var random = new Random(8);
    for (int round = 0; round < 200; round++) {
      var window = new AckWindow();
      var tickets = new ArrayList<AckWindow.Ticket>();
      for (long offset = 0; offset < 50; offset++) {
        tickets.add(window.track(3, offset));
      }
      Collections.shuffle(tickets, random);
      var done = new java.util.HashSet<Long>();
      for (AckWindow.Ticket ticket : tickets) {
        window.done(ticket);
        done.add(ticket.offset());
        Long commit = window.committable().get(3);
        if (commit != null) {
          for (long below = 0; below < commit; below++) {
            assertThat(done).contains(below);
          }
        }
      }
    }
  }

  @Test
  void partitionsAreIndependent_andAForgottenPartitionStartsAfresh() {
    var window = new AckWindow();
    window.track(0, 5);
    window.done(window.track(1, 7));
    assertThat(window.committable()).isEqualTo(Map.of(0, 5L, 1, 8L));
    window.forget(0);
    window.done(window.track(0, 2));
    assertThat(window.committable()).isEqualTo(Map.of(0, 3L));
  }

  /**
   * A broker lost what it had acknowledged (a leader elected without the last records), so the
   * partition's offsets go back and new records come under offsets already seen. They are taken,
   * and the commit follows them: refusing them as out of order skipped them for good.
   */
  @Test
  void offsetsThatGoBack_startThePartitionsWindowAgain_andAreCommittedInTurn() {
    var window = new AckWindow();
    for (long offset = 0; offset < 10; offset++) {
      window.done(window.track(0, offset));
    }
    assertThat(window.committable()).isEqualTo(Map.of(0, 10L));

    AckWindow.Ticket rewritten = window.track(0, 6);
    AckWindow.Ticket next = window.track(0, 7);
    assertThat(window.committable()).as("held at the first new record").isEqualTo(Map.of(0, 6L));
    window.done(rewritten);
    window.done(next);
    assertThat(window.committable()).isEqualTo(Map.of(0, 8L));
  }

  /**
   * A partition is given up (a rebalance) while a worker still handles its offset 4, and assigned
   * back: offset 4, fetched again, is taken anew. The old worker finishing must not count as the
   * new one finishing: the commit would pass a record still being handled, and a crash would skip
   * it.
   */
  @Test
  void aMessageOfAWindowThatStartedAgain_doesNotCompleteTheNewWindowsMessage() {
    var window = new AckWindow();
    AckWindow.Ticket old = window.track(0, 4);
    window.forget(0);
    AckWindow.Ticket again = window.track(0, 4);

    window.done(old);
    assertThat(window.inFlight()).isEqualTo(1);
    assertThat(window.committable()).isEqualTo(Map.of(0, 4L));
    window.done(again);
    assertThat(window.committable()).isEqualTo(Map.of(0, 5L));
  }

  /**
   * The log is cut at 95 while records 50 to 99 are still being handled: the records below the cut
   * are the same records, still in flight, and hold the commit back until they are done; the
   * workers of the cut ones (95 to 99) no longer count, the new records at those offsets do.
   */
  @Test
  void aWindowStartedAgain_keepsTheRecordsBelowItsStartInFlight() {
    var window = new AckWindow();
    var taken = new HashMap<Long, AckWindow.Ticket>();
    for (long offset = 0; offset < 100; offset++) {
      taken.put(offset, window.track(0, offset));
    }
    for (long offset = 0; offset < 50; offset++) {
      window.done(taken.get(offset));
    }
    assertThat(window.committable()).isEqualTo(Map.of(0, 50L));

    AckWindow.Ticket rewritten = window.track(0, 95);
    window.done(rewritten);
    window.done(taken.get(97L)); // a worker of a record cut from the log
    assertThat(window.committable()).as("50 to 94 are still in flight").isEmpty();
    assertThat(window.inFlight()).isEqualTo(45);

    for (long offset = 50; offset < 95; offset++) {
      window.done(taken.get(offset));
    }
    assertThat(window.committable()).isEqualTo(Map.of(0, 96L));
  }
}
