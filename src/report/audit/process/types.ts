/**
 * A process diagram laid out, as plain data: boxes for flow nodes, pools and lanes, polylines for
 * flows, in SVG user units starting near 0,0. Both layouts (from the file's DI, or computed with
 * dagre) produce it, and the SVG renderer only draws it.
 */
import type {
  DiagramFlow,
  DiagramLane,
  DiagramNode,
  DiagramPool,
  ProcessDiagram,
} from "../../../bpmn/index.js";

/** A point of the drawing. */
export interface XY {
  readonly x: number;
  readonly y: number;
}

/** A rectangle of the drawing: its top-left corner and size. */
export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** A flow node and where it is drawn. */
export interface PlacedNode {
  readonly node: DiagramNode;
  readonly box: Box;
  /** Where its name goes for an event or a gateway (below the shape unless the DI says). */
  readonly label: Box | undefined;
}

/** A sequence or message flow and its polyline. */
export interface PlacedFlow {
  readonly flow: DiagramFlow;
  readonly message: boolean;
  readonly points: readonly XY[];
  readonly label: Box | undefined;
}

/** A pool (a participant's band) and its lanes. */
export interface PlacedPool {
  readonly pool: DiagramPool;
  readonly box: Box;
  readonly lanes: readonly { readonly lane: DiagramLane; readonly box: Box }[];
}

/** How the picture was placed: as the modeller drew it, or by agentflow with dagre. */
export type LayoutSource = "di" | "dagre";

/** A whole process diagram, laid out. */
export interface ProcessLayout {
  readonly diagram: ProcessDiagram;
  readonly source: LayoutSource;
  readonly width: number;
  readonly height: number;
  readonly pools: readonly PlacedPool[];
  /** Containers (expanded sub-processes) come before their content. */
  readonly nodes: readonly PlacedNode[];
  readonly flows: readonly PlacedFlow[];
  /** Flow nodes not drawn: the content of sub-processes drawn collapsed. */
  readonly hidden: ReadonlyMap<string, string>;
}
