import { jsPDF } from 'jspdf';
import { t } from '../../lib/i18n';
import { fitImage } from './pdf-fit';

/**
 * Print-to-PDF of an article or basic page (spec B 2.8, 9): a real PDF file made with jsPDF from
 * the page's rendered content — title, headings, paragraphs, list items and images scaled to fit
 * 450x450 points — with a 'Page n of m' footer on every page. Loaded as its own chunk on demand.
 */

const MARGIN = 56;
const FOOTER = 28;

interface Block {
  kind: 'h1' | 'h2' | 'h3' | 'text' | 'item' | 'code' | 'image';
  text?: string;
  image?: HTMLImageElement;
}

function collect(root: Element, out: Block[]): void {
  for (const node of Array.from(root.children)) {
    const tag = node.tagName.toLowerCase();
    if (tag === 'h1' || tag === 'h2' || tag === 'h3') out.push({ kind: tag, text: node.textContent ?? '' });
    else if (tag === 'h4' || tag === 'h5' || tag === 'h6')
      out.push({ kind: 'h3', text: node.textContent ?? '' });
    else if (tag === 'li') {
      out.push({ kind: 'item', text: node.textContent?.replace(/\s+/g, ' ').trim() ?? '' });
    } else if (tag === 'pre') out.push({ kind: 'code', text: node.textContent ?? '' });
    else if (tag === 'img') out.push({ kind: 'image', image: node as HTMLImageElement });
    else if (tag === 'ul' || tag === 'ol' || tag === 'div' || tag === 'section' || tag === 'blockquote') {
      collect(node, out);
    } else {
      const images = Array.from(node.querySelectorAll('img'));
      const text = node.textContent?.replace(/\s+/g, ' ').trim() ?? '';
      if (text) out.push({ kind: 'text', text });
      for (const img of images) out.push({ kind: 'image', image: img });
    }
  }
}

/** The image as a PNG data URL (through a canvas, so SVGs work too), or undefined when it cannot load. */
async function pngOf(
  img: HTMLImageElement,
): Promise<{ data: string; width: number; height: number } | undefined> {
  const source = new Image();
  source.crossOrigin = 'anonymous';
  const loaded = new Promise<boolean>((resolve) => {
    source.onload = () => resolve(true);
    source.onerror = () => resolve(false);
  });
  source.src = img.currentSrc || img.src;
  if (!(await loaded)) return undefined;
  const width = source.naturalWidth || img.width || 450;
  const height = source.naturalHeight || img.height || 300;
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) return undefined;
  ctx.drawImage(source, 0, 0, width, height);
  try {
    return { data: canvas.toDataURL('image/png'), width, height };
  } catch {
    return undefined; // a cross-origin image taints the canvas: left out
  }
}

export async function exportPdf(options: {
  title: string;
  content: Element;
  heroImage?: HTMLImageElement | null;
  fileName: string;
}): Promise<void> {
  const doc = new jsPDF({ unit: 'pt', format: 'a4' });
  const pageWidth = doc.internal.pageSize.getWidth();
  const pageHeight = doc.internal.pageSize.getHeight();
  const width = pageWidth - 2 * MARGIN;
  let y = MARGIN;

  const room = (needed: number) => {
    if (y + needed > pageHeight - MARGIN - FOOTER) {
      doc.addPage();
      y = MARGIN;
    }
  };
  const write = (text: string, size: number, style: 'normal' | 'bold', gap: number, indent = 0) => {
    doc.setFont('helvetica', style);
    doc.setFontSize(size);
    const lines = doc.splitTextToSize(text, width - indent) as string[];
    for (const line of lines) {
      room(size * 1.3);
      doc.text(line, MARGIN + indent, y + size);
      y += size * 1.3;
    }
    y += gap;
  };
  const picture = async (img: HTMLImageElement) => {
    const png = await pngOf(img);
    if (!png) return;
    const size = fitImage(png.width, png.height);
    room(size.height + 8);
    doc.addImage(png.data, 'PNG', MARGIN, y, size.width, size.height);
    y += size.height + 12;
  };

  write(options.title, 22, 'bold', 10);
  if (options.heroImage) await picture(options.heroImage);
  const blocks: Block[] = [];
  collect(options.content, blocks);
  for (const b of blocks) {
    if (b.kind === 'image' && b.image) await picture(b.image);
    else if (b.kind === 'h1') write(b.text ?? '', 18, 'bold', 6);
    else if (b.kind === 'h2') write(b.text ?? '', 15, 'bold', 4);
    else if (b.kind === 'h3') write(b.text ?? '', 13, 'bold', 3);
    else if (b.kind === 'item') write(`•  ${b.text ?? ''}`, 11, 'normal', 2, 10);
    else if (b.kind === 'code') write(b.text ?? '', 10, 'normal', 6, 10);
    else if (b.text) write(b.text, 11, 'normal', 8);
  }

  const pages = doc.getNumberOfPages();
  for (let page = 1; page <= pages; page++) {
    doc.setPage(page);
    doc.setFont('helvetica', 'normal');
    doc.setFontSize(9);
    doc.text(t('content.pageNumber', { page, pages }), pageWidth / 2, pageHeight - FOOTER, {
      align: 'center',
    });
  }
  doc.save(options.fileName);
}
