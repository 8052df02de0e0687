package hongbao.core.campaign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class CampaignRulesTest {

  private static final Instant T0 = Instant.parse("2027-02-16T12:00:00Z");

  private static CampaignDraft.RoundDraft round(long startSecond, long seconds, PrizeLine... p) {
    return new CampaignDraft.RoundDraft(T0.plusSeconds(startSecond), seconds, List.of(p));
  }

  private static CampaignDraft draft(long budget, List<CampaignDraft.RoundDraft> rounds) {
    return new CampaignDraft("除夕红包雨", budget, rounds, 3, 10);
  }

  private static Campaign accept(CampaignDraft draft) {
    return CampaignRules.accept("c_1", draft, "CASH"::equals, T0.minusSeconds(60));
  }

  private static Rejection rejection(CampaignDraft draft) {
    try {
      accept(draft);
    } catch (RejectedException e) {
      return e.rejection();
    }
    throw new AssertionError("accepted " + draft);
  }

  @Test
  void accept_numbersRoundsInStartOrder_andSizesTheirSubPools() {
    Campaign c =
        accept(
            draft(
                100_000_000,
                List.of(
                    round(3_600, 60, new PrizeLine("CASH", 888, 10)),
                    round(0, 180, new PrizeLine("CASH", 888, 100_000)))));
    assertThat(c.rounds()).extracting(Round::number).containsExactly(1, 2);
    assertThat(c.round(1).startsAt()).isEqualTo(T0);
    assertThat(c.round(1).subPools()).isEqualTo(16);
    assertThat(c.round(2).subPools()).isEqualTo(1);
    assertThat(c.homePools()).isEqualTo(16);
  }

  @Test
  void accept_countsTheNameInCharacters_notInUtf16Units() {
    var rounds = List.of(round(0, 60, new PrizeLine("CASH", 1, 1)));
    String emoji = "\uD83E\uDDE7"; // 🧧, two UTF-16 units
    var fits = new CampaignDraft(emoji.repeat(CampaignRules.NAME_MAX_CHARS), 1, rounds, 3, 10);
    assertThat(accept(fits).name()).hasSize(2 * CampaignRules.NAME_MAX_CHARS);
    var over = new CampaignDraft(emoji.repeat(CampaignRules.NAME_MAX_CHARS + 1), 1, rounds, 3, 10);
    assertThat(rejection(over)).isEqualTo(Rejection.INVALID_REQUEST);
    assertThat(rejection(new CampaignDraft(" ", 1, rounds, 3, 10)))
        .isEqualTo(Rejection.INVALID_REQUEST);
  }

  @Test
  void accept_whenCashPrizesExceedTheBudget_isInvalidAmount_couponsCostNothing() {
    var fits = draft(8_880, List.of(round(0, 60, new PrizeLine("CASH", 888, 10))));
    assertThat(accept(fits).budget().fen()).isEqualTo(8_880);
    var over = draft(8_879, List.of(round(0, 60, new PrizeLine("CASH", 888, 10))));
    assertThat(rejection(over)).isEqualTo(Rejection.INVALID_AMOUNT);
    var coupons = draft(1, List.of(round(0, 60, new PrizeLine("TEA", 1, 50_000))));
    assertThat(accept(coupons).rounds()).hasSize(1);
    var overflow =
        draft(
            1,
            List.of(
                round(0, 60, new PrizeLine("CASH", 100_000_000_000L, 10_000_000)),
                round(60, 60, new PrizeLine("CASH", 100_000_000_000L, 10_000_000))));
    assertThat(rejection(overflow)).isEqualTo(Rejection.INVALID_AMOUNT);
  }

  @Test
  void accept_refusesOverlapsAndOutOfRangeShapes() {
    var overlap =
        draft(
            10_000,
            List.of(
                round(0, 61, new PrizeLine("CASH", 1, 1)),
                round(60, 60, new PrizeLine("CASH", 1, 1))));
    assertThat(rejection(overlap)).isEqualTo(Rejection.INVALID_REQUEST);
    var touching =
        draft(
            10_000,
            List.of(
                round(0, 60, new PrizeLine("CASH", 1, 1)),
                round(60, 60, new PrizeLine("CASH", 1, 1))));
    assertThat(accept(touching).rounds()).hasSize(2);

    var many = new ArrayList<CampaignDraft.RoundDraft>();
    for (int i = 0; i < 25; i++) {
      many.add(round(i * 100L, 60, new PrizeLine("CASH", 1, 1)));
    }
    assertThat(rejection(draft(10_000, many))).isEqualTo(Rejection.INVALID_REQUEST);
    assertThat(accept(draft(10_000, many.subList(0, 24))).rounds()).hasSize(24);
    assertThat(rejection(draft(10_000, List.of()))).isEqualTo(Rejection.INVALID_REQUEST);

    var lines = Collections.nCopies(21, new PrizeLine("CASH", 1, 1));
    var tooManyLines = new CampaignDraft.RoundDraft(T0, 60, lines);
    assertThat(rejection(draft(10_000, List.of(tooManyLines))))
        .isEqualTo(Rejection.INVALID_REQUEST);
    var twenty = new CampaignDraft.RoundDraft(T0, 60, lines.subList(0, 20));
    assertThat(accept(draft(10_000, List.of(twenty))).round(1).prizes()).hasSize(20);
  }

  @Test
  void accept_refusesARoundStartingOutsideTheStoresTimes() {
    var line = List.of(new PrizeLine("CASH", 1, 1));
    for (Instant startsAt :
        List.of(
            Instant.MAX,
            Instant.MIN,
            Instant.parse("+10000-01-01T00:00:00Z"),
            CampaignRules.STARTS_AT_EARLIEST.minusSeconds(1),
            CampaignRules.STARTS_AT_LATEST.plusSeconds(1))) {
      var draft = draft(10, List.of(new CampaignDraft.RoundDraft(startsAt, 60, line)));
      assertThat(rejection(draft)).as("%s", startsAt).isEqualTo(Rejection.INVALID_REQUEST);
    }
    for (Instant startsAt :
        List.of(CampaignRules.STARTS_AT_EARLIEST, CampaignRules.STARTS_AT_LATEST)) {
      var draft = draft(10, List.of(new CampaignDraft.RoundDraft(startsAt, 86_400, line)));
      assertThat(accept(draft).round(1).startsAt()).isEqualTo(startsAt);
    }
  }

  /** The store keeps microseconds: a finer startsAt is kept as what it will read back as. */
  @Test
  void accept_keepsStartsAtToTheMicrosecond() {
    var line = List.of(new PrizeLine("CASH", 1, 1));
    var draft =
        draft(
            10,
            List.of(
                new CampaignDraft.RoundDraft(
                    Instant.parse("2027-02-16T12:00:00.123456789Z"), 60, line)));
    assertThat(accept(draft).round(1).startsAt())
        .isEqualTo(Instant.parse("2027-02-16T12:00:00.123456Z"));
  }

  @Test
  void accept_boundsPrizesPerRound() {
    var tenMillion =
        draft(
            1,
            List.of(
                round(
                    0,
                    60,
                    new PrizeLine("TEA", 1, 6_000_000),
                    new PrizeLine("TEA", 1, 4_000_000))));
    assertThat(accept(tenMillion).round(1).subPools()).isEqualTo(SubPools.MAX_SUB_POOLS);
    var over =
        draft(
            1,
            List.of(
                round(
                    0,
                    60,
                    new PrizeLine("TEA", 1, 6_000_000),
                    new PrizeLine("TEA", 1, 4_000_001))));
    assertThat(rejection(over)).isEqualTo(Rejection.INVALID_COUNT);
    assertThat(rejection(draft(10, List.of(round(0, 60, new PrizeLine("CASH", 1, 0))))))
        .isEqualTo(Rejection.INVALID_COUNT);
    assertThat(rejection(draft(10, List.of(round(0, 60, new PrizeLine("CASH", 0, 1))))))
        .isEqualTo(Rejection.INVALID_AMOUNT);
    assertThat(rejection(draft(10, List.of(round(0, 0, new PrizeLine("CASH", 1, 1))))))
        .isEqualTo(Rejection.INVALID_REQUEST);
    assertThat(rejection(draft(10, List.of(round(0, 60, new PrizeLine("cash", 1, 1))))))
        .isEqualTo(Rejection.INVALID_REQUEST);
    assertThatThrownBy(
            () ->
                accept(
                    new CampaignDraft(
                        "x", 10, List.of(round(0, 60, new PrizeLine("CASH", 1, 1))), 0, 10)))
        .isInstanceOf(RejectedException.class);
  }
}
