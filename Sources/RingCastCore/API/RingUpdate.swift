/// The body of `PUT /api/v1/boards/{board}/rings/{ring}`: `{"progress":P,"animation":A}`, optionally with
/// `"colors"` and `"labelColor"`, or a bare number — exactly one PATCH entry, so it is one.
public typealias RingUpdate = RingPatch
