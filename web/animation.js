// The animation chooser: turns the form's fields into the API's animation value (DESIGN §4, §6).
// It only checks that each number is a number; ranges are the server's to judge, and its 422
// says what is wrong in its own words.

const KINDS = ["none", "curve", "preset", "spring", "bounce"];

// A field whose value cannot be sent; the caller shows the message next to the field.
export class FieldError extends Error {
  constructor(input, message) {
    super(message);
    this.name = "FieldError";
    this.input = input;
  }
}

export function animationChooser(root) {
  const kind = root.querySelector("#animation-kind");
  const groups = new Map([...root.querySelectorAll("[data-kind]")].map((group) => [group.dataset.kind, group]));
  const field = (id) => root.querySelector(`#${id}`);
  const preview = root.querySelector("#animation-json");

  function number(id) {
    const input = field(id);
    if (!input.checkValidity() || !Number.isFinite(input.valueAsNumber)) {
      const label = input.closest("label")?.firstChild?.textContent.trim() ?? id;
      throw new FieldError(input, `${label}: ${input.validationMessage || "enter a number"}`);
    }
    return input.valueAsNumber;
  }

  // The value to send, as the API spells it; throws FieldError for a field that is not a number.
  function value() {
    switch (kind.value) {
      case "none":
        return "none";
      case "curve":
        return { curve: field("curve").value, duration: number("curve-duration") };
      case "preset":
        return field("preset").value;
      case "spring":
        return { spring: { response: number("spring-response"), dampingFraction: number("spring-damping") } };
      case "bounce":
        return { spring: { duration: number("bounce-duration"), bounce: number("bounce") } };
      default:
        throw new Error(`unknown animation kind ${kind.value}`);
    }
  }

  // Shows the fields of the chosen kind only, and what will be sent.
  function update() {
    for (const name of KINDS) {
      const group = groups.get(name);
      if (group !== undefined) {
        group.hidden = name !== kind.value;
      }
    }
    try {
      preview.textContent = JSON.stringify(value());
    } catch (error) {
      if (!(error instanceof FieldError)) {
        throw error;
      }
      preview.textContent = "(incomplete)";
    }
  }

  root.addEventListener("input", update);
  root.addEventListener("change", update);
  update();
  return { value };
}
