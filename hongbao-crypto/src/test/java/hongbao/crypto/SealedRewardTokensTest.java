package hongbao.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.money.Amount;
import hongbao.core.reward.Reward;
import hongbao.core.reward.RewardTokens;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class SealedRewardTokensTest {

  private static final Reward REWARD =
      new Reward(
          "cny2027_rain_3_CASH_u42",
          "u42",
          "c_x81k",
          "rain",
          "CASH",
          Amount.fen(888),
          "除夕红包雨第3场",
          Instant.ofEpochMilli(1_790_000_000_123L));

  private final Sealer sealer = Sealer.generate();
  private final SealedRewardTokens tokens = new SealedRewardTokens(sealer);

  @Test
  void open_ofItsOwnToken_givesEveryFieldBack() {
    String token = tokens.seal(REWARD);

    assertThat(tokens.open(token, "u42")).contains(REWARD);
    assertThat(tokens.openAny(token)).contains(REWARD);
  }

  @Test
  void open_ofAnotherUsersToken_isEmpty_evenWithTheUserHintChanged() {
    String token = tokens.seal(REWARD);
    String rebadged = "u43" + token.substring(token.indexOf('~'));

    assertThat(tokens.open(token, "u43")).isEmpty();
    assertThat(tokens.open(rebadged, "u43")).isEmpty();
    assertThat(tokens.openAny(rebadged)).isEmpty();
  }

  @Test
  void open_ofATamperedOrTruncatedToken_isEmpty() {
    String token = tokens.seal(REWARD);
    for (int at = token.indexOf('~') + 1; at < token.length(); at += 7) {
      char c = token.charAt(at);
      String tampered = token.substring(0, at) + (c == 'A' ? 'B' : 'A') + token.substring(at + 1);
      assertThat(tokens.open(tampered, "u42")).as("tampered at %d", at).isEmpty();
    }
    assertThat(tokens.open(token.substring(0, token.length() - 1), "u42")).isEmpty();
    assertThat(tokens.open(token.substring(0, token.length() / 2), "u42")).isEmpty();
    assertThat(tokens.open("", "u42")).isEmpty();
    assertThat(tokens.open("u42~", "u42")).isEmpty();
    assertThat(tokens.openAny("garbage")).isEmpty();
  }

  @Test
  void open_ofATokenOfAnotherKeyset_isEmpty() {
    String foreign = new SealedRewardTokens(Sealer.generate()).seal(REWARD);

    assertThat(tokens.open(foreign, "u42")).isEmpty();
  }

  @Test
  void open_afterRotation_stillOpensOldTokens_andNewOnesNeedTheNewKey() {
    String old = tokens.seal(REWARD);
    Sealer rotated = Sealer.fromKeysetJson(sealer.rotate().keysetJson());
    var afterRotation = new SealedRewardTokens(rotated);
    String fresh = afterRotation.seal(REWARD);

    assertThat(afterRotation.open(old, "u42")).contains(REWARD);
    assertThat(afterRotation.open(fresh, "u42")).contains(REWARD);
    assertThat(tokens.open(fresh, "u42")).as("the old keyset lacks the new primary").isEmpty();
  }

  @Test
  void seal_ofTheLargestRewardTheRulesAllow_staysWithin512Characters() {
    Reward largest =
        new Reward(
            "T".repeat(128),
            "u".repeat(64),
            "c".repeat(32),
            "s".repeat(32),
            "Z".repeat(32),
            Amount.fen(100_000_000_000L),
            "红".repeat(16),
            Instant.ofEpochMilli(Long.MAX_VALUE / 2));

    String token = tokens.seal(largest);

    assertThat(token.length()).isLessThanOrEqualTo(RewardTokens.MAX_CHARS);
    assertThat(tokens.open(token, "u".repeat(64))).contains(largest);
  }
}
