package hongbao.core.packet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.Invariants;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** A packet id carries its activity, and an id of a packet outside any is a plain number. */
class PacketIdTest {

  @Test
  void idOf_roundTripsTheActivity_andStaysPositive() {
    var random = new SplittableRandom(15);
    for (int i = 0; i < 10_000; i++) {
      long sequence = 1 + random.nextLong((1L << Packet.ACTIVITY_SHIFT) - 1);
      long activity = 1 + random.nextLong(Packet.MAX_ACTIVITY_ID);
      long id = Packet.idOf(sequence, activity);
      assertThat(id).isPositive();
      assertThat(Packet.activityOf(id)).isEqualTo(activity);
      long[] range = Packet.idRangeOf(activity);
      assertThat(id).isBetween(range[0], range[1]);
    }
  }

  @Test
  void plainIds_belongToNoActivity() {
    assertThat(Packet.idOf(42, 0)).isEqualTo(42);
    var random = new SplittableRandom(16);
    for (int i = 0; i < 10_000; i++) {
      assertThat(Packet.activityOf(random.nextLong(Packet.IN_ACTIVITY))).isZero();
    }
  }

  @Test
  void idOf_refusesNumbersThatDoNotFit() {
    assertThatThrownBy(() -> Packet.idOf(1L << Packet.ACTIVITY_SHIFT, 1))
        .isInstanceOf(Invariants.InvariantViolation.class);
    assertThatThrownBy(() -> Packet.idOf(1, Packet.MAX_ACTIVITY_ID + 1))
        .isInstanceOf(Invariants.InvariantViolation.class);
    assertThatThrownBy(() -> Packet.idOf(0, 1)).isInstanceOf(Invariants.InvariantViolation.class);
  }
}
