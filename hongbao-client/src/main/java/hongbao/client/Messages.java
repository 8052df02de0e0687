package hongbao.client;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The bodies of the API as records (field names as in docs/api.md). Times are the API's ISO-8601
 * strings; money is fen. Fields a newer server adds are ignored.
 */
public final class Messages {

  private Messages() {}

  public record Token(String token) {}

  public record TopUp(String userId, long balance) {}

  public record WalletEntry(String kind, long amount, String packetId, String at) {}

  public record Wallet(
      String userId, long balance, long pendingAmount, List<WalletEntry> entries) {}

  /**
   * Absent fields are left out of the request; {@code passwordMatch} is "EXACT", "PINYIN" or
   * 50-100.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Send(
      long amount,
      int count,
      String type,
      String greeting,
      Integer expiresInSeconds,
      String password,
      Object passwordMatch,
      List<String> recipients,
      String activityId) {

    public static Send lucky(long amount, int count) {
      return new Send(amount, count, "LUCKY", null, null, null, null, null, null);
    }

    public Send withGreeting(String text) {
      return new Send(
          amount,
          count,
          type,
          text,
          expiresInSeconds,
          password,
          passwordMatch,
          recipients,
          activityId);
    }

    public Send withPassword(String phrase) {
      return new Send(
          amount,
          count,
          type,
          greeting,
          expiresInSeconds,
          phrase,
          passwordMatch,
          recipients,
          activityId);
    }
  }

  public record Sent(String id, long amount, int count, String type, String expiresAt) {}

  /** GRABBED (with amount and receipt), ALREADY_GRABBED (amount), EXPIRED, SOLD_OUT, ... */
  public record Grab(String outcome, Long amount, String receipt) {}

  /** PAID, RECORDED, RECOVERED or REFUSED (with a reason). */
  public record Claim(String outcome, long amount, String reason) {}

  public record Share(String userId, long amount, String at, boolean paid) {}

  public record BestLuck(String userId, long amount) {}

  /**
   * A packet's details ({@code grabs} set, {@code myShare} null) or a box's item ({@code grabs}
   * null, {@code myShare} the caller's own grab or null).
   */
  public record Packet(
      String id,
      String sender,
      String type,
      String greeting,
      long amount,
      int count,
      int grabbedCount,
      long grabbedAmount,
      String status,
      String createdAt,
      String expiresAt,
      String emptiedAt,
      Long timeToEmptyMillis,
      long refundedAmount,
      boolean hasPassword,
      Object passwordMatch,
      String activityId,
      BestLuck bestLuck,
      List<Share> grabs,
      Share myShare) {}

  public record PacketPage(List<Packet> items, String nextCursor) {}

  public record ActivityUser(String userId, int grabs) {}

  public record Activity(
      String id,
      String name,
      int maxGrabsPerUser,
      String createdBy,
      String createdAt,
      Long userCount,
      List<ActivityUser> users,
      String nextCursor) {}

  public record Reconciliation(boolean ok, long packetsChecked, List<String> discrepancies) {}

  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record RewardType(
      String type,
      String kind,
      long ratePerSecond,
      Long burst,
      Boolean fused,
      String queue,
      String issuerUrl) {}

  public record RewardTypes(List<RewardType> items) {}

  public record RewardCampaign(String campaignId, long budget, boolean created) {}

  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Reward(
      String tradeNo,
      String userId,
      String campaignId,
      String scene,
      String type,
      long amount,
      String desc) {}

  public record RewardSent(String tradeNo, String token, String status) {}

  public record TokenValidity(
      String validity, String tradeNo, String userId, String type, Long amount, boolean credited) {}

  public record StatementItem(
      String tradeNo, String type, long amount, String desc, String at, String status) {}

  public record Statement(List<StatementItem> items, long pendingAmount, long creditedAmount) {}

  public record Withdrawal(
      String id,
      long amount,
      String status,
      String createdAt,
      String updatedAt,
      String gatewayRef,
      String reason) {}

  public record WithdrawalPage(List<Withdrawal> items, String nextCursor) {}
}
