package hongbao.sdk;

/** Where a reward comes from: the campaign (whose budget pays it) and the scene within it. */
public record Activity(String campaignId, String scene) {}
