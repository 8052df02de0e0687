package hongbao.core.reward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class AckWindowTest {

  @Test
  void committable_neverPassesTheLowestOffsetStillInFlight() {
    var window = new AckWindow();
    for (long offset = 10; offset < 15; offset++) {
      window.track(0, offset);
    }
    window.done(0, 12);
    window.done(0, 13);
    assertThat(window.committable()).isEqualTo(Map.of(0, 10L));

    window.done(0, 10);
    assertThat(window.committable()).isEqualTo(Map.of(0, 11L));
    assertThat(window.committable()).as("nothing moved since").isEmpty();

    window.done(0, 11);
    window.done(0, 14);
    assertThat(window.committable()).isEqualTo(Map.of(0, 15L));
    assertThat(window.inFlight()).isZero();
  }

  @Test
  void committable_inAnyOrderOfCompletion_isAlwaysAPrefixOfDoneOffsets() {
    var random = new Random(8);
    for (int round = 0; round < 200; round++) {
      var window = new AckWindow();
      var offsets = new ArrayList<Long>();
      for (long offset = 0; offset < 50; offset++) {
        window.track(3, offset);
        offsets.add(offset);
      }
      Collections.shuffle(offsets, random);
      var done = new java.util.HashSet<Long>();
      for (long offset : offsets) {
        window.done(3, offset);
        done.add(offset);
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
    window.track(1, 7);
    window.done(1, 7);
    assertThat(window.committable()).isEqualTo(Map.of(0, 5L, 1, 8L));
    window.forget(0);
    window.track(0, 2);
    window.done(0, 2);
    assertThat(window.committable()).isEqualTo(Map.of(0, 3L));
    assertThatThrownBy(() -> window.track(1, 3)).isInstanceOf(IllegalArgumentException.class);
  }
}
