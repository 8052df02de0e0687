package hongbao.core.packet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SendRulesTest {

  private final SendRules rules = new SendRules(PacketLimits.DEFAULTS);

  private static SendRequest lucky(long amount, long count) {
    return new SendRequest("alice", amount, count, PacketType.LUCKY, null, null, null, null);
  }

  private Rejection rejectionOf(SendRequest request) {
    try {
      rules.validate(request);
    } catch (RejectedException e) {
      return e.rejection();
    }
    return null;
  }

  @Test
  void isUserId_agreesWithThePattern_onEdgesAndOnRandomStrings() {
    assertThat(SendRules.isUserId(null)).isFalse();
    for (String text :
        List.of(
            "", "a", "A.b_c@d-9", "a".repeat(64), "a".repeat(65), "a b", "é", "a/b", "\u0000")) {
      assertThat(SendRules.isUserId(text))
          .as(text)
          .isEqualTo(SendRules.USER_ID.matcher(text).matches());
    }
    // Characters drawn from just around each allowed range, so that every boundary is crossed.
    String alphabet = "@AZ[`az{/09:_^.-,+ \u00e9\u4e2d";
    Random random = new Random(7);
    int accepted = 0;
    for (int i = 0; i < 20_000; i++) {
      int length = random.nextInt(67);
      StringBuilder text = new StringBuilder(length);
      for (int j = 0; j < length; j++) {
        // Mostly allowed characters, so that long accepted ids are drawn too.
        text.append(
            random.nextInt(8) == 0
                ? alphabet.charAt(random.nextInt(alphabet.length()))
                : "aZ09_.@-".charAt(random.nextInt(8)));
      }
      String candidate = text.toString();
      boolean expected = SendRules.USER_ID.matcher(candidate).matches();
      assertThat(SendRules.isUserId(candidate)).as(candidate).isEqualTo(expected);
      accepted += expected ? 1 : 0;
    }
    assertThat(accepted).isBetween(100, 19_900);
  }

  @Test
  void validRequest_getsTheDefaultExpiry() {
    assertThat(rules.validate(lucky(10_000, 10))).isEqualTo(86_400);
  }

  @Test
  void count_outsideLimits_isInvalidCount() {
    assertThat(rejectionOf(lucky(100_000, 0))).isEqualTo(Rejection.INVALID_COUNT);
    assertThat(rejectionOf(lucky(100_000, 10_001))).isEqualTo(Rejection.INVALID_COUNT);
  }

  @Test
  void amount_outsideLimits_orBelowCount_isInvalidAmount() {
    assertThat(rejectionOf(lucky(0, 1))).isEqualTo(Rejection.INVALID_AMOUNT);
    assertThat(rejectionOf(lucky(20_000_001, 1))).isEqualTo(Rejection.INVALID_AMOUNT);
    assertThat(rejectionOf(lucky(9, 10))).isEqualTo(Rejection.INVALID_AMOUNT);
    assertThat(rejectionOf(lucky(10, 10))).isNull();
  }

  @Test
  void fixedAmount_notDivisibleByCount_isInvalidAmount() {
    var fixed = new SendRequest("alice", 100, 3, PacketType.FIXED, null, null, null, null);
    assertThat(rejectionOf(fixed)).isEqualTo(Rejection.INVALID_AMOUNT);
  }

  @Test
  void expiry_outsideLimits_isInvalidExpiry() {
    for (long seconds : new long[] {0, -1, 604_801}) {
      var request = new SendRequest("a", 100, 1, PacketType.LUCKY, null, seconds, null, null);
      assertThat(rejectionOf(request)).isEqualTo(Rejection.INVALID_EXPIRY);
    }
  }

  @Test
  void exclusive_countMustEqualRecipients() {
    var request =
        new SendRequest("a", 100, 3, PacketType.EXCLUSIVE, null, null, null, List.of("b", "c"));
    assertThat(rejectionOf(request)).isEqualTo(Rejection.INVALID_COUNT);
  }

  @Test
  void recipients_duplicateMalformedOrOnLucky_areInvalidRequests() {
    var duplicate =
        new SendRequest("a", 100, 2, PacketType.EXCLUSIVE, null, null, null, List.of("b", "b"));
    var malformed =
        new SendRequest("a", 100, 1, PacketType.EXCLUSIVE, null, null, null, List.of("b c"));
    var onLucky = new SendRequest("a", 100, 1, PacketType.LUCKY, null, null, null, List.of("b"));
    assertThat(rejectionOf(duplicate)).isEqualTo(Rejection.INVALID_REQUEST);
    assertThat(rejectionOf(malformed)).isEqualTo(Rejection.INVALID_REQUEST);
    assertThat(rejectionOf(onLucky)).isEqualTo(Rejection.INVALID_REQUEST);
  }

  @Test
  void greeting_over64Characters_isInvalidRequest() {
    String greeting = "福".repeat(65);
    var request = new SendRequest("a", 100, 1, PacketType.LUCKY, greeting, null, null, null);
    assertThat(rejectionOf(request)).isEqualTo(Rejection.INVALID_REQUEST);
    var fine = new SendRequest("a", 100, 1, PacketType.LUCKY, "福".repeat(64), null, null, null);
    assertThat(rejectionOf(fine)).isNull();
  }

  @Test
  void password_ofOnlyPunctuation_isInvalidRequest() {
    var request = new SendRequest("a", 100, 1, PacketType.LUCKY, null, null, "！！", null);
    assertThatThrownBy(() -> rules.validate(request))
        .isInstanceOf(RejectedException.class)
        .extracting(e -> ((RejectedException) e).rejection())
        .isEqualTo(Rejection.INVALID_REQUEST);
  }
}
