package report

import "image/color"

// okabeIto returns colour i (mod 8) of the Okabe–Ito palette: eight colours that stay distinct
// for readers with the common forms of colour blindness, and in greyscale print when paired
// with marker shapes.
func okabeIto(i int) color.Color {
	palette := [...]color.Color{
		color.RGBA{0x00, 0x00, 0x00, 0xff}, // black
		color.RGBA{0xE6, 0x9F, 0x00, 0xff}, // orange
		color.RGBA{0x56, 0xB4, 0xE9, 0xff}, // sky blue
		color.RGBA{0x00, 0x9E, 0x73, 0xff}, // bluish green
		color.RGBA{0x00, 0x72, 0xB2, 0xff}, // blue
		color.RGBA{0xD5, 0x5E, 0x00, 0xff}, // vermillion
		color.RGBA{0xCC, 0x79, 0xA7, 0xff}, // reddish purple
		color.RGBA{0xF0, 0xE4, 0x42, 0xff}, // yellow
	}
	return palette[(i%len(palette)+len(palette))%len(palette)]
}
