package hongbao.core.withdrawal;

import static hongbao.core.withdrawal.WithdrawalStatus.FAILED;
import static hongbao.core.withdrawal.WithdrawalStatus.REQUESTED;
import static hongbao.core.withdrawal.WithdrawalStatus.SENT;
import static hongbao.core.withdrawal.WithdrawalStatus.SUCCEEDED;
import static hongbao.core.withdrawal.WithdrawalStatus.UNKNOWN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.Invariants;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class WithdrawalStatusTest {

  @Test
  void theMovesOfTheStateMachine_andNoOthers() {
    var allowed =
        Set.of(
            "REQUESTED>SENT",
            "SENT>UNKNOWN",
            "SENT>SUCCEEDED",
            "SENT>FAILED",
            "UNKNOWN>SENT",
            "UNKNOWN>SUCCEEDED",
            "UNKNOWN>FAILED");
    for (WithdrawalStatus from : WithdrawalStatus.values()) {
      for (WithdrawalStatus to : WithdrawalStatus.values()) {
        assertThat(from.canMoveTo(to))
            .as("%s -> %s", from, to)
            .isEqualTo(allowed.contains(from + ">" + to));
      }
    }
    assertThat(EnumSet.allOf(WithdrawalStatus.class).stream().filter(WithdrawalStatus::settled))
        .containsExactly(SUCCEEDED, FAILED);
  }

  @Test
  void aMoveTheMachineForbids_isABug() {
    Instant now = Instant.EPOCH;
    assertThatThrownBy(
            () ->
                new Move(1, Set.of(REQUESTED), SUCCEEDED, "x", now, null, "ref", false, false, -1))
        .isInstanceOf(Invariants.InvariantViolation.class);
    assertThatThrownBy(
            () -> new Move(1, Set.of(SENT), UNKNOWN, "x", now, null, null, false, false, -1))
        .as("an unsettled withdrawal needs its next check")
        .isInstanceOf(Invariants.InvariantViolation.class);
  }

  @Test
  void outTradeNumbers_areUniquePerId_andFitTheGatewaysLimit() {
    assertThat(Withdrawal.outTradeNo(1)).isEqualTo("HBW0000000000000001");
    assertThat(Withdrawal.outTradeNo(Long.MAX_VALUE)).hasSizeLessThanOrEqualTo(32);
  }
}
