package hongbao.core.reward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * What a caller hands in through the SDK is held to the HTTP API's rules for text: an SDK caller
 * cutting "除夕🧧" mid-character would otherwise issue a reward whose copies (token, Redis, Kafka)
 * disagree on its desc.
 */
class RewardRequestTest {

  private static final Instant AT = Instant.parse("2027-02-16T12:00:00Z");

  private static RewardRequest withDesc(String desc) {
    return new RewardRequest("t-1", "alice", "c-1", "rain", "CASH", 888, desc);
  }

  @Test
  void aDescWithAWholeEmoji_isAccepted() {
    assertThat(withDesc("除夕\uD83E\uDDE7").at(AT).desc()).isEqualTo("除夕\uD83E\uDDE7");
  }

  @Test
  void aDescCutMidCharacter_orHoldingNul_isInvalidRequest() {
    for (String desc : new String[] {"除夕\uD83E", "\uDDE7除夕", "a\uDDE7\uD83Eb", "a\u0000b"}) {
      assertThatThrownBy(() -> withDesc(desc).at(AT))
          .as(desc)
          .isInstanceOfSatisfying(
              RejectedException.class,
              e -> assertThat(e.rejection()).isEqualTo(Rejection.INVALID_REQUEST));
    }
  }
}
